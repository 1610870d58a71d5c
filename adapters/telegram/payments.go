package telegram

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"shopbot/engine/payments"
	"shopbot/engine/view"
)

// payloadPrefix marks invoice payloads: "order:<number>" (≤ 128 bytes).
const payloadPrefix = "order:"

// placedDuring reports whether an order was created in the turn that
// began at start (an order shown later, e.g. by /orders, is not).
func placedDuring(ov *view.OrderView, start time.Time) bool {
	created, err := time.Parse(time.RFC3339, ov.CreatedAt)
	return err == nil && !created.Before(start.Add(-2*time.Second))
}

// invoice asks for payment of an order just placed, in minor units, one
// price per line.
func (a *Adapter) invoice(ctx context.Context, chat int64, ov *view.OrderView, locale string) {
	inv, ok := invoiceOf(ov, locale)
	if !ok {
		a.log.ErrorContext(ctx, "telegram: order lines do not add up to the total; no invoice", "order", ov.Number)
		return
	}
	err := a.call(ctx, chat, "sendInvoice", true, func(ctx context.Context) error {
		_, err := a.bot.SendInvoice(ctx, &bot.SendInvoiceParams{
			ChatID: chat, Title: inv.title, Description: inv.description, Payload: inv.payload,
			ProviderToken: a.cfg.PaymentToken, Currency: ov.Currency, Prices: inv.prices,
		})
		return err
	})
	if err != nil && !errors.Is(err, errChatGone) {
		a.log.ErrorContext(ctx, "telegram invoice not sent", "order", ov.Number, "err", err)
	}
}

// invoiceFields are an order's invoice as the Bot API takes it (sendInvoice
// and createInvoiceLink alike).
type invoiceFields struct {
	title, description, payload string
	prices                      []models.LabeledPrice
}

// invoiceOf is the invoice of an order: one price per line, then its
// delivery and its promo discount (a negative price), adding up to the
// order's total; ok is false when they do not.
func invoiceOf(ov *view.OrderView, locale string) (inv invoiceFields, ok bool) {
	var desc []string
	sum := int64(0)
	add := func(label string, amount int64) {
		sum += amount
		inv.prices = append(inv.prices, models.LabeledPrice{Label: truncateVisible(label, 40), Amount: int(amount)})
	}
	for _, l := range ov.Lines {
		add(fmt.Sprintf("%s × %d", l.Title, l.Qty), l.UnitPrice*int64(l.Qty))
		desc = append(desc, fmt.Sprintf("%s × %d", l.Title, l.Qty))
	}
	if len(inv.prices) == 0 {
		return invoiceFields{}, false
	}
	if ov.DeliveryCents > 0 {
		add(ov.Delivery, ov.DeliveryCents)
	}
	if ov.Discount > 0 {
		add("Promo "+ov.PromoCode, -ov.Discount)
	}
	if sum != ov.Total || sum <= 0 {
		return invoiceFields{}, false
	}
	inv.title = truncateVisible(fmt.Sprintf(text(locale, txtPayTitle), ov.Number), 32)
	inv.description = truncateVisible(strings.Join(desc, ", "), 255)
	inv.payload = payloadPrefix + ov.Number
	return inv, true
}

// preCheckoutWithin bounds the checks before answering a pre-checkout query.
const preCheckoutWithin = 1500 * time.Millisecond

// preCheckout confirms a payment is still right: the order awaits payment,
// the total is unchanged, every product is still sold at the price paid.
func (a *Adapter) preCheckout(ctx context.Context, q *models.PreCheckoutQuery) {
	locale := ""
	if q.From != nil {
		locale = q.From.LanguageCode
	}
	cctx, cancel := context.WithTimeout(ctx, preCheckoutWithin)
	reason := a.refusal(cctx, q, locale)
	cancel()
	err := a.call(context.WithoutCancel(ctx), 0, "answerPreCheckoutQuery", false, func(ctx context.Context) error {
		_, err := a.bot.AnswerPreCheckoutQuery(ctx, &bot.AnswerPreCheckoutQueryParams{
			PreCheckoutQueryID: q.ID, OK: reason == "", ErrorMessage: reason,
		})
		return err
	})
	if err != nil {
		a.log.ErrorContext(ctx, "telegram pre-checkout not answered", "err", err)
	}
}

// refusal returns why the payment must not go ahead, or "": the engine
// checks, this words its answer in the shopper's language.
func (a *Adapter) refusal(ctx context.Context, q *models.PreCheckoutQuery, locale string) string {
	number, ok := strings.CutPrefix(q.InvoicePayload, payloadPrefix)
	if !ok || q.From == nil {
		return text(locale, txtRefuseNotPayable)
	}
	err := a.checkPayment(ctx, number, int64(q.TotalAmount), q.Currency)
	var no *payments.Refusal
	switch {
	case err == nil:
		return ""
	case errors.As(err, &no):
		return refusalText(locale, no)
	}
	a.log.ErrorContext(ctx, "telegram pre-checkout: order not checked", "order", number, "err", err)
	return text(locale, txtRefuseTryAgain)
}

// checkPayment asks the engine whether the order may be paid, in each
// channel whose orders Telegram pays (payChannels): the chat's own, and
// the agent door's when invoice links are made for its orders. The first
// answer other than "not payable here" stands.
func (a *Adapter) checkPayment(ctx context.Context, number string, amount int64, currency string) error {
	var err error
	for _, ch := range a.payChannels() {
		err = a.cfg.Shop.PreCheckout(ctx, payments.Payment{Channel: ch, OrderNumber: number, Amount: amount, Currency: currency})
		var no *payments.Refusal
		if !errors.As(err, &no) || no.Reason != payments.RefuseNotPayable {
			return err
		}
	}
	return err
}

// refusalText words the engine's refusal of a payment.
func refusalText(locale string, no *payments.Refusal) string {
	switch no.Reason {
	case payments.RefuseTotalChanged:
		return text(locale, txtRefuseTotal)
	case payments.RefuseProductGone:
		return fmt.Sprintf(text(locale, txtRefuseGone), no.Title)
	case payments.RefusePriceChanged:
		return fmt.Sprintf(text(locale, txtRefusePrice), no.Title)
	}
	return text(locale, txtRefuseNotPayable)
}

// paid records a successful payment through the engine; the same charge
// reported twice changes nothing and says nothing the second time.
func (a *Adapter) paid(ctx context.Context, m *models.Message) {
	sp := m.SuccessfulPayment
	number, ok := strings.CutPrefix(sp.InvoicePayload, payloadPrefix)
	if !ok {
		a.log.ErrorContext(ctx, "telegram payment for an unknown payload", "charge_id", sp.TelegramPaymentChargeID)
		return
	}
	o, first, err := a.cfg.Shop.ConfirmPayment(ctx, payments.Payment{
		Channel: "telegram", OrderNumber: number, Amount: int64(sp.TotalAmount), Currency: sp.Currency,
		ChargeID: sp.TelegramPaymentChargeID,
	})
	if err != nil {
		a.log.ErrorContext(ctx, "telegram payment not recorded", "order", number, "charge_id", sp.TelegramPaymentChargeID, "err", err)
		return
	}
	if !first {
		return
	}
	locale := ""
	if m.From != nil {
		locale = m.From.LanguageCode
	}
	a.say(ctx, m.Chat.ID, fmt.Sprintf(text(locale, txtPaid), esc(o.Number)), nil)
}

// chatIDOf parses a stored chat id.
func chatIDOf(s string) (int64, error) {
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id == 0 {
		return 0, fmt.Errorf("telegram: %q is not a chat id", s)
	}
	return id, nil
}
