package telegram

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-telegram/bot/models"

	"shopbot/engine/locale"
	"shopbot/engine/view"
)

// Notify implements engine.Notifier for shoppers on Telegram: an order's
// status changed by the merchant, or a merchant's reply during a
// takeover, sent to the chat of the order or conversation.
func (a *Adapter) Notify(ctx context.Context, n view.Notice) error {
	if n.Where.Channel != "telegram" {
		return fmt.Errorf("telegram: notice for channel %q", n.Where.Channel)
	}
	chat, err := chatIDOf(n.Where.ChatID)
	if err != nil {
		return err
	}
	var html string
	var markup models.ReplyMarkup
	switch n.Kind {
	case view.NoticeOrderStatus:
		if n.Order == nil {
			return fmt.Errorf("telegram: order_status notice without an order")
		}
		html = fmt.Sprintf(text("", txtStatus), esc(n.Order.Number), esc(n.Order.Status))
		if n.Order.Tracking != "" {
			html += "\n" + esc(fmt.Sprintf(text("", txtTracking), n.Order.Tracking))
		}
		if n.Text != "" { // e.g. a refund the merchant recorded
			html += "\n" + esc(n.Text)
		}
	case view.NoticeMerchantReply:
		if n.Text == "" {
			return fmt.Errorf("telegram: merchant_reply notice without text")
		}
		html = "💬 <b>" + esc(a.cfg.ShopName) + "</b>\n" + esc(n.Text)
	case view.NoticeBackInStock:
		if n.Product == nil {
			return fmt.Errorf("telegram: back_in_stock notice without a product")
		}
		html = fmt.Sprintf(text(n.Locale, txtBackInStock), esc(n.Product.Title), esc(n.Product.PriceText))
		if b, ok := a.inlineButton(ctx, text(n.Locale, txtAddToCart), view.Action{Kind: view.ActAdd, SKU: n.Product.SKU, Qty: 1}); ok {
			markup = &inlineKeyboard{InlineKeyboard: [][]inlineButton{{b}}}
		}
	case view.NoticeCSAT:
		html = esc(locale.Word(n.Locale, "csat.prompt"))
		var row []inlineButton
		for _, rb := range view.RatingButtons() {
			if b, ok := a.inlineButton(ctx, rb.Label, rb.Action); ok {
				row = append(row, b)
			}
		}
		markup = &inlineKeyboard{InlineKeyboard: [][]inlineButton{row}}
	default:
		return fmt.Errorf("telegram: cannot deliver notice %q to a shopper", n.Kind)
	}
	_, err = a.send(ctx, chat, html, markup)
	if errors.Is(err, errChatGone) {
		// The shopper blocked the bot or the chat is gone: the caller
		// stops trying (back-in-stock alerts are marked, not retried).
		return fmt.Errorf("%w: %w", view.ErrUnreachable, err)
	}
	return err
}
