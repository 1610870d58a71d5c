package planner

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"shopbot/engine/planner/intent"
	"shopbot/engine/session"
	"shopbot/engine/tools/checkout"
	"shopbot/engine/view"
)

// Delivery without a model: "how much is delivery to Canada?" lists the
// methods of get_delivery_options; at checkout the methods that fit the
// address are offered (text and buttons) and the shopper's choice
// ("2", "the courier one", "самовывоз", a button) goes back to checkout.
// The words are in intent/delivery.go.

// deliveryQuote answers what delivery to a country costs.
func (t *plannerTurn) deliveryQuote(ctx context.Context, in intent.Intent) error {
	res, err := t.call(ctx, "get_delivery_options", map[string]string{"country": in.Query})
	if err != nil {
		return t.fail(err)
	}
	v := dataAs[checkout.DeliveryOptions](res)
	if v.Note == checkout.NoteNoDeliveryMethods {
		// No methods set up: the shop's pages are what it says of delivery.
		about := "shipping delivery "
		if t.lang == "ru" {
			about = "доставка стоимость "
		}
		return t.info(ctx, intent.Intent{Kind: intent.IntentInfo, Query: strings.TrimSpace(about + v.CountryName)})
	}
	w := deliveryText.get(t.lang)
	if len(v.Options) == 0 {
		t.sayText(fmt.Sprintf(w.none, v.CountryName))
		return nil
	}
	t.sayText(fmt.Sprintf(w.quote, v.CountryName) + optionLines(w, v.Options))
	return nil
}

// deliveryChoice gives checkout the method the shopper named.
func (t *plannerTurn) deliveryChoice(ctx context.Context, in intent.Intent) error {
	return t.checkoutStep(ctx, map[string]any{"delivery": in.Value})
}

// ChooseDelivery answers a delivery button: arg is the method's id among
// those the checkout offered. A button of an older offer shows the
// checkout's current step instead.
func (p *Planner) ChooseDelivery(ctx context.Context, s *session.Session, arg string) (Plan, error) {
	if s.State == nil {
		s.State = &session.State{}
	}
	t := &plannerTurn{p: p, s: s, lang: s.Lang()}
	args := map[string]any{}
	if name, ok := checkout.DeliveryButton(s.State, arg); ok {
		args["delivery"] = name
	}
	err := t.checkoutStep(ctx, args)
	return t.plan, errors.Join(err, t.err)
}

// deliveryReply words the checkout's delivery step: the methods to choose
// from, or that none reaches the address.
func (t *plannerTurn) deliveryReply(v checkoutView) {
	w := deliveryText.get(t.lang)
	if v.Status == "no_delivery" {
		t.sayText(fmt.Sprintf(w.noneCheckout, v.Country))
		t.button("btn.cart", view.Action{Kind: view.ActCart})
		return
	}
	text := ""
	if v.Reason != "" {
		text = w.unavailable + "\n"
	}
	t.sayText(text + w.choose + optionLines(w, v.Delivery))
	// The checkout state keeps the offered methods' ids, in the same order.
	if co := t.s.State.Checkout; co != nil && len(co.Options) == len(v.Delivery) {
		for i, o := range v.Delivery {
			a := view.Action{Kind: view.ActDelivery, Arg: strconv.FormatInt(co.Options[i].ID, 10)}
			t.plan.Buttons = append(t.plan.Buttons, view.NewButton(o.Name+" — "+w.price(o.Price), a))
		}
	}
}

func optionLines(w deliveryWords, opts []checkout.DeliveryOption) string {
	var b strings.Builder
	for _, o := range opts {
		fmt.Fprintf(&b, "\n%d. %s — %s", o.N, o.Name, w.price(o.Price))
		if o.FreeOver != "" {
			fmt.Fprintf(&b, w.freeOver, o.FreeOver)
		}
		if o.Days != "" {
			fmt.Fprintf(&b, w.days, o.Days)
		}
	}
	return b.String()
}

type deliveryWords struct {
	quote, none, choose, unavailable, noneCheckout, freeOver, days, free string
}

func (w deliveryWords) price(p string) string {
	if p == "free" {
		return w.free
	}
	return p
}

var deliveryText = langTable[deliveryWords]{
	"en": {
		quote:        "Delivery to %s:",
		none:         "Sorry, we don't deliver to %s.",
		choose:       "How should we deliver it? Reply with a number or a name:",
		unavailable:  "That delivery method isn't available for this address.",
		noneCheckout: "Sorry, we don't deliver to %s. Send another address, or say \"cancel\".",
		freeOver:     " (free from %s)",
		days:         ", %s business days",
		free:         "free",
	},
	"ru": {
		quote:        "Доставка (%s):",
		none:         "К сожалению, мы не доставляем в эту страну (%s).",
		choose:       "Как доставить заказ? Ответьте номером или названием:",
		unavailable:  "Этот способ доставки недоступен для вашего адреса.",
		noneCheckout: "К сожалению, мы не доставляем в эту страну (%s). Пришлите другой адрес или напишите «отмена».",
		freeOver:     " (бесплатно от %s)",
		days:         ", %s раб. дн.",
		free:         "бесплатно",
	},
}
