package telegram

import (
	"context"
	"fmt"

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
	switch n.Kind {
	case view.NoticeOrderStatus:
		if n.Order == nil {
			return fmt.Errorf("telegram: order_status notice without an order")
		}
		html = fmt.Sprintf(text("", txtStatus), esc(n.Order.Number), esc(n.Order.Status))
		if n.Order.Tracking != "" {
			html += "\n" + esc(fmt.Sprintf(text("", txtTracking), n.Order.Tracking))
		}
	case view.NoticeMerchantReply:
		if n.Text == "" {
			return fmt.Errorf("telegram: merchant_reply notice without text")
		}
		html = "💬 <b>" + esc(a.cfg.ShopName) + "</b>\n" + esc(n.Text)
	default:
		return fmt.Errorf("telegram: cannot deliver notice %q to a shopper", n.Kind)
	}
	_, err = a.send(ctx, chat, html, nil)
	return err
}
