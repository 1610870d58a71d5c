package slack

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"shopbot/engine"
	"shopbot/engine/locale"
	"shopbot/engine/view"
)

// errNotDelivered reports a notice Slack did not take.
var errNotDelivered = errors.New("slack: notice not delivered")

// Merchants returns the notifier that posts new orders and handoffs from
// every channel to the orders channel, or nil without one.
func (a *Adapter) Merchants() engine.Notifier {
	if a.cfg.OrdersChannel == "" {
		return nil
	}
	return notifierFunc(a.notifyMerchants)
}

// Shoppers returns the notifier that tells Slack shoppers of order status
// changes and merchant replies, in the thread of their conversation.
func (a *Adapter) Shoppers() engine.Notifier { return notifierFunc(a.notifyShopper) }

func (a *Adapter) notifyMerchants(ctx context.Context, n view.Notice) error {
	var text, fallback string
	switch n.Kind {
	case view.NoticeOrderPlaced:
		if n.Order == nil {
			return fmt.Errorf("slack: order notice without an order")
		}
		fallback = "New order #" + n.Order.Number
		text = fmt.Sprintf(":package: *New order #%s* · %s · from %s on %s",
			escape(n.Order.Number), escape(n.Order.TotalText), escape(nameOr(n.Customer)), escape(n.Where.Channel))
	case view.NoticeHandoff:
		fallback = nameOr(n.Customer) + " needs a person"
		text = fmt.Sprintf(":raising_hand: *%s on %s needs a person*", escape(nameOr(n.Customer)), escape(n.Where.Channel))
		if n.Text != "" {
			text += "\n> " + escape(truncateRunes(strings.ReplaceAll(n.Text, "\n", " "), 500))
		}
	default:
		return fmt.Errorf("slack: merchants get no %q notices", n.Kind)
	}
	blocks := textBlocks(text)
	if n.Order != nil {
		blocks = append(blocks, orderBlocks(n.Order, "Order")...)
	}
	if link := a.transcriptURL(n.ConversationID); link != "" {
		blocks = append(blocks, section("<"+link+"|Open the conversation in the admin>"))
	}
	if a.post(ctx, a.cfg.OrdersChannel, "", fallback, blocks) == "" {
		return errNotDelivered
	}
	return nil
}

func (a *Adapter) notifyShopper(ctx context.Context, n view.Notice) error {
	if n.Where.Channel != "slack" || n.Where.ChatID == "" {
		return fmt.Errorf("slack: notice for %s/%s is not a Slack conversation", n.Where.Channel, n.Where.ChatID)
	}
	var text string
	var blocks []slack.Block
	switch n.Kind {
	case view.NoticeOrderStatus:
		if n.Order == nil {
			return fmt.Errorf("slack: status notice without an order")
		}
		text = fmt.Sprintf("Order #%s is now %s", n.Order.Number, n.Order.Status)
		blocks = orderBlocks(n.Order, "Order update")
		if n.Text != "" { // e.g. a refund the merchant recorded
			blocks = append(blocks, section(escape(n.Text)))
		}
	case view.NoticeBackInStock:
		if n.Product == nil {
			return fmt.Errorf("slack: back_in_stock notice without a product")
		}
		text = fmt.Sprintf("%s is back in stock: %s", n.Product.Title, n.Product.PriceText)
		add := button("Add to cart", view.Action{Kind: view.ActAdd, SKU: n.Product.SKU, Qty: 1})
		add.Style = slack.StylePrimary
		blocks = []slack.Block{
			section(fmt.Sprintf(":bell: *%s* is back in stock: %s", escape(n.Product.Title), escape(n.Product.PriceText))),
			slack.NewActionBlock("", add),
		}
	case view.NoticeCSAT:
		text = locale.Word(n.Locale, "csat.prompt")
		var buttons []slack.BlockElement
		for _, rb := range view.RatingButtons() {
			buttons = append(buttons, button(rb.Label, rb.Action))
		}
		blocks = []slack.Block{section(escape(text)), slack.NewActionBlock("csat", buttons...)}
	case view.NoticeMerchantReply:
		text = n.Text
		blocks = textBlocks("*From the shop:* " + escape(n.Text))
	default:
		return fmt.Errorf("slack: shoppers get no %q notices", n.Kind)
	}
	if a.post(ctx, n.Where.ChatID, n.Where.ThreadID, text, blocks) == "" {
		return errNotDelivered
	}
	return nil
}

// transcriptURL links to the admin's transcript of a conversation.
func (a *Adapter) transcriptURL(id int64) string {
	if id == 0 || a.cfg.AdminURL == "" {
		return ""
	}
	return fmt.Sprintf("%s/admin/conversations/%d", strings.TrimRight(a.cfg.AdminURL, "/"), id)
}

// notifierFunc adapts a function to engine.Notifier.
type notifierFunc func(ctx context.Context, n view.Notice) error

func (f notifierFunc) Notify(ctx context.Context, n view.Notice) error { return f(ctx, n) }

func nameOr(s string) string {
	if s == "" {
		return "A shopper"
	}
	return s
}
