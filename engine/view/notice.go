package view

import (
	"errors"
	"strconv"

	"shopbot/catalog"
)

// NoticeKind says what a Notice reports.
type NoticeKind string

const (
	// To the merchant (e.g. the Slack orders channel):
	NoticeOrderPlaced NoticeKind = "order_placed" // a shopper placed an order
	NoticeHandoff     NoticeKind = "handoff"      // request_human: a person is needed

	// To the shopper, in the chat the conversation or order came from:
	NoticeOrderStatus   NoticeKind = "order_status"   // the merchant changed an order's status
	NoticeMerchantReply NoticeKind = "merchant_reply" // a merchant wrote during a takeover
	NoticeBackInStock   NoticeKind = "back_in_stock"  // a product the shopper asked to hear about is back
	NoticeCSAT          NoticeKind = "csat"           // the conversation was resolved: rate it 1–5 (RatingButtons)
)

// RatingButtons are the CSAT prompt's buttons, 1 to 5, each an ActRate.
func RatingButtons() []Button {
	bs := make([]Button, 5)
	for i := range bs {
		bs[i] = NewButton(strconv.Itoa(i+1), Action{Kind: ActRate, Qty: i + 1})
	}
	return bs
}

// Notice is something to tell a person outside the turn that caused it:
// the merchant about a new order or a handoff, the shopper about an order
// status change or a merchant's reply.
type Notice struct {
	Kind NoticeKind
	// Where is the shopper's conversation (or the order's chat).
	Where          catalog.ConversationKey
	ConversationID int64      // for a link to the admin transcript; 0 if unknown
	Customer       string     // the shopper's display name
	Order          *OrderView // order notices
	Text           string     // the handoff reason, the merchant's reply, a refund
	Product        *Card      // back_in_stock: the product, offered with an add button
	Locale         string     // the shopper's language when known ("en", "ru")
}

// ErrUnreachable is wrapped by an adapter's Notify when the shopper's chat
// refuses messages for good (Telegram: the user blocked the bot): the
// caller stops trying instead of retrying.
var ErrUnreachable = errors.New("recipient unreachable")
