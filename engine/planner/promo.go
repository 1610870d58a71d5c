package planner

import (
	"context"
	"errors"
	"fmt"
	"shopbot/engine/toolkit"
	"strings"

	"shopbot/engine/planner/intent"
	"shopbot/engine/view"
)

// Promo codes offline: "I have a code SPRING10" applies it through
// apply_promo_code, "remove the promo code" takes it off; the reply says
// what the code does for the cart (its discount and the new total, or
// what is missing), and the cart event shows the promo line.

// promo applies or removes the code of the message.
func (t *plannerTurn) promo(ctx context.Context, in intent.Intent) error {
	args := map[string]any{"code": in.Value}
	if in.Topic == "remove" {
		args = map[string]any{"remove": true}
	}
	res, err := t.call(ctx, "apply_promo_code", args)
	if err != nil {
		var te *toolkit.ToolError
		if errors.As(err, &te) && !strings.HasPrefix(te.Msg, "arguments") {
			t.sayText(fmt.Sprintf(promoText.get(t.lang).refused, strings.TrimSuffix(te.Msg, "; the cart is unchanged")))
			return nil
		}
		return t.fail(err)
	}
	t.sayText(promoReply(promoText.get(t.lang), res.Cart, in.Topic == "remove"))
	t.cartButtons()
	return nil
}

type promoWords struct{ applied, waiting, removed, refused string }

// promoText is the skill's wording per language (English is the default).
var promoText = langTable[promoWords]{
	"en": {
		applied: "Promo code %s applied: %s off. New total: %s.",
		waiting: "I've kept promo code %s on your cart, but it gives no discount yet: %s.",
		removed: "Promo code removed. Total: %s.",
		refused: "Sorry, that code doesn't work: %s.",
	},
	"ru": {
		applied: "Промокод %s применён: скидка %s. Новая сумма: %s.",
		waiting: "Промокод %s сохранён в корзине, но скидки пока нет: %s.",
		removed: "Промокод убран. Сумма: %s.",
		refused: "Извините, этот промокод не подходит: %s.",
	},
}

func promoReply(w promoWords, cv *view.CartView, removed bool) string {
	switch {
	case removed || cv.PromoCode == "":
		return fmt.Sprintf(w.removed, cv.TotalText)
	case cv.PromoNote != "":
		return fmt.Sprintf(w.waiting, cv.PromoCode, cv.PromoNote)
	}
	return fmt.Sprintf(w.applied, cv.PromoCode, cv.DiscountText, cv.TotalText)
}
