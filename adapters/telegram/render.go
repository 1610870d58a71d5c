package telegram

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"shopbot/adapters/inbox"
	"shopbot/engine/view"
)

// maxCards bounds the cards shown for one result; each is a message.
const maxCards = 6

// cards sends each product as a photo with a caption (or a text card when
// it has no image or Telegram cannot fetch it) with its buttons.
func (r *reply) cards(ctx context.Context, cs []view.Card) {
	for _, c := range cs[:min(len(cs), maxCards)] {
		kb := r.a.cardKeyboard(ctx, c, r.turn.Locale)
		if c.ImageURL != "" && safeURL(c.ImageURL) {
			if r.check(ctx, r.pace(ctx)) {
				return
			}
			err := r.a.call(ctx, r.chat.ID, "sendPhoto", false, func(ctx context.Context) error {
				_, err := r.a.bot.SendPhoto(ctx, &bot.SendPhotoParams{
					ChatID: r.chat.ID, Photo: &models.InputFileString{Data: c.ImageURL},
					Caption: cardHTML(c, r.turn.Locale, maxCaption), ParseMode: models.ParseModeHTML, ReplyMarkup: kb,
				})
				return err
			})
			if r.check(ctx, err) {
				return
			}
			if err == nil {
				continue
			}
			// The image could not be sent (Telegram failed to fetch it): a text card instead.
		}
		if _, err := r.send(ctx, cardHTML(c, r.turn.Locale, 1500), kb); r.check(ctx, err) {
			return
		}
	}
}

// cardHTML renders a product within limit visible characters; the summary
// is shortened to fit. Every value is escaped.
func cardHTML(c view.Card, locale string, limit int) string {
	var lines []string
	lines = append(lines, "<b>"+esc(truncateVisible(c.Title, 200))+"</b>")
	var meta []string
	for _, s := range []string{c.Brand, c.Category} {
		if s != "" {
			meta = append(meta, esc(truncateVisible(s, 80)))
		}
	}
	if len(meta) > 0 {
		lines = append(lines, "<i>"+strings.Join(meta, " · ")+"</i>")
	}
	stock := text(locale, txtOutOfStock)
	if c.InStock {
		stock = text(locale, txtInStock)
	}
	lines = append(lines, "<b>"+esc(c.PriceText)+"</b> · "+stock)
	if c.RatingCount > 0 {
		lines = append(lines, fmt.Sprintf("⭐ %.1f (%d)", c.Rating, c.RatingCount))
	}
	head := strings.Join(lines, "\n")
	if c.Summary == "" {
		return head
	}
	room := limit - visibleLen(head) - 2
	summary := truncateVisible(c.Summary, max(room, 0))
	for room > 0 && visibleLen(head+"\n\n"+esc(summary)) > limit {
		room -= 10
		summary = truncateVisible(c.Summary, max(room, 0))
	}
	if room <= 0 {
		return head
	}
	return head + "\n\n" + esc(summary)
}

func (a *Adapter) cardKeyboard(ctx context.Context, c view.Card, locale string) models.ReplyMarkup {
	var rows [][]inlineButton
	if c.InStock {
		if b, ok := a.inlineButton(ctx, text(locale, txtAddToCart), view.Action{Kind: view.ActAdd, SKU: c.SKU, Qty: 1}); ok {
			rows = append(rows, []inlineButton{b})
		}
	} else if b, ok := a.inlineButton(ctx, text(locale, txtNotifyMe), view.Action{Kind: view.ActNotify, SKU: c.SKU}); ok {
		rows = append(rows, []inlineButton{b})
	}
	var row []inlineButton
	if b, ok := a.inlineButton(ctx, text(locale, txtDetails), view.Action{Kind: view.ActDetails, SKU: c.SKU}); ok {
		row = append(row, b)
	}
	if b, ok := a.inlineButton(ctx, text(locale, txtSimilar), view.Action{Kind: view.ActSimilar, SKU: c.SKU}); ok {
		row = append(row, b)
	}
	if len(row) > 0 {
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil
	}
	return &inlineKeyboard{InlineKeyboard: rows}
}

// cart shows the cart as one message: a button press that changed it
// edits that message in place; anything else sends it anew — once per
// turn: the cart message a turn posted (earlier in it, or in a run cut
// short when its replica died) is edited when the turn shows the cart
// again, so a turn taken over by another replica posts no second one.
func (r *reply) cart(ctx context.Context, cv *view.CartView) {
	r.cartShown = true
	html := cartHTML(cv, r.turn.Locale)
	kb := r.a.cartKeyboard(ctx, cv, r.turn.Locale)
	key := strconv.FormatInt(r.chat.ID, 10)
	stored := r.storedCart(ctx, key)
	if target := r.cartTarget(stored); target != 0 {
		err := r.a.edit(ctx, r.chat.ID, target, html, kb)
		if err == nil {
			if target != stored.id {
				r.saveCart(ctx, key, target)
			}
			return
		}
		if r.check(ctx, err) {
			return
		}
	}
	id, err := r.send(ctx, html, kb)
	if r.check(ctx, err) || err != nil {
		return
	}
	r.saveCart(ctx, key, id)
}

// storedCart is the chat's remembered cart message.
type storedCart struct {
	id   int    // 0: none
	turn string // the dedup key of the turn that posted it
}

// cartTarget is the message to edit: the one this turn posted, the cart
// message whose − / + was pressed, else the chat's cart message after an
// add; 0 sends a new one.
func (r *reply) cartTarget(stored storedCart) int {
	if stored.id != 0 && stored.turn != "" && stored.turn == r.turn.DedupKey {
		return stored.id
	}
	if r.pressed == nil {
		return 0
	}
	switch r.pressed.action.Kind {
	case view.ActSet, view.ActRemove:
		if r.pressed.messageID != 0 {
			return r.pressed.messageID
		}
		return stored.id
	case view.ActAdd:
		return stored.id
	}
	return 0
}

func (r *reply) storedCart(ctx context.Context, key string) storedCart {
	c, err := r.a.inbox.Cart(ctx, key, "")
	if err != nil {
		r.a.log.WarnContext(ctx, "telegram cart message unknown", "err", err)
	}
	n, _ := strconv.Atoi(c.MessageID) // none: 0, a new message
	return storedCart{id: n, turn: c.Turn}
}

// saveCart remembers id as the chat's cart message, posted or taken over
// by this turn.
func (r *reply) saveCart(ctx context.Context, key string, id int) {
	c := inbox.Cart{MessageID: strconv.Itoa(id), Turn: r.turn.DedupKey}
	if err := r.a.inbox.RememberCartOf(ctx, key, "", c); err != nil {
		r.a.log.WarnContext(ctx, "telegram cart message not remembered", "err", err)
	}
}

func cartChange(k view.ActionKind) bool {
	return k == view.ActAdd || k == view.ActSet || k == view.ActRemove
}

func cartHTML(cv *view.CartView, locale string) string {
	head := text(locale, txtCart)
	if cv.Shared {
		head = text(locale, txtGroupCart)
	}
	if len(cv.Lines) == 0 {
		return head + "\n" + esc(text(locale, txtCartEmpty))
	}
	lines := []string{head}
	for i, l := range cv.Lines {
		line := fmt.Sprintf("%d. %s × %d — %s", i+1, esc(truncateVisible(withVariant(l.Title, l.Variant), 120)), l.Qty, esc(l.PriceText))
		if cv.Shared && l.AddedBy != "" {
			line += " <i>(" + esc(fmt.Sprintf(text(locale, txtAddedBy), truncateVisible(l.AddedBy, 40))) + ")</i>"
		}
		lines = append(lines, line)
	}
	if pl := cv.PromoLine(); pl != "" {
		lines = append(lines, "<i>"+esc(pl)+"</i>")
	}
	lines = append(lines, fmt.Sprintf(text(locale, txtTotal), esc(cv.TotalText), cv.Units))
	return strings.Join(lines, "\n")
}

// cartKeyboard has − qty + per line, then Checkout.
func (a *Adapter) cartKeyboard(ctx context.Context, cv *view.CartView, locale string) models.ReplyMarkup {
	var rows [][]inlineButton
	for _, l := range cv.Lines[:min(len(cv.Lines), 20)] {
		minus, ok1 := a.inlineButton(ctx, "−", view.Action{Kind: view.ActSet, SKU: l.SKU, Qty: l.Qty - 1})
		if l.Qty <= 1 {
			minus, ok1 = a.inlineButton(ctx, "−", view.Action{Kind: view.ActRemove, SKU: l.SKU})
		}
		name := truncateVisible(l.Title, 24)
		if l.Variant != "" {
			name = truncateVisible(withVariant(l.Title, l.Variant), 36)
		}
		label, ok2 := a.inlineButton(ctx, fmt.Sprintf("%s × %d", name, l.Qty), view.Action{Kind: view.ActDetails, SKU: l.SKU})
		plus, ok3 := a.inlineButton(ctx, "+", view.Action{Kind: view.ActSet, SKU: l.SKU, Qty: l.Qty + 1})
		if ok1 && ok2 && ok3 {
			rows = append(rows, []inlineButton{minus, label, plus})
		}
	}
	if len(cv.Lines) > 0 {
		if b, ok := a.inlineButton(ctx, text(locale, txtCheckout), view.Action{Kind: view.ActCheckout}); ok {
			rows = append(rows, []inlineButton{b})
		}
	}
	if len(rows) == 0 {
		return nil
	}
	return &inlineKeyboard{InlineKeyboard: rows}
}

// order shows an order; one placed in this turn is remembered for the
// invoice.
func (r *reply) order(ctx context.Context, ov *view.OrderView) {
	if ov.Status == "new" && placedDuring(ov, r.started) {
		r.placed = ov
	}
	_, err := r.send(ctx, orderHTML(ov, r.turn.Locale), nil)
	r.check(ctx, err)
}

func orderHTML(ov *view.OrderView, locale string) string {
	lines := []string{fmt.Sprintf(text(locale, txtOrder), esc(ov.Number), esc(ov.Status))}
	for _, l := range ov.Lines {
		lines = append(lines, fmt.Sprintf("• %s × %d", esc(truncateVisible(withVariant(l.Title, l.Variant), 120)), l.Qty))
	}
	if pl := ov.PromoLine(); pl != "" {
		lines = append(lines, esc(pl))
	}
	lines = append(lines, "<b>"+esc(ov.TotalText)+"</b>")
	if ov.Tracking != "" {
		lines = append(lines, esc(fmt.Sprintf(text(locale, txtTracking), ov.Tracking)))
	}
	return strings.Join(lines, "\n")
}

// withVariant names a cart or order line's variant after its title:
// "Trail Runner (42 / Navy)".
func withVariant(title, variant string) string {
	if variant == "" {
		return title
	}
	return title + " (" + variant + ")"
}
