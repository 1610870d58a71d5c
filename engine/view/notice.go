package view

import "shopbot/catalog"

// NoticeKind says what a Notice reports.
type NoticeKind string

const (
	// To the merchant (e.g. the Slack orders channel):
	NoticeOrderPlaced NoticeKind = "order_placed" // a shopper placed an order
	NoticeHandoff     NoticeKind = "handoff"      // request_human: a person is needed

	// To the shopper, in the chat the conversation or order came from:
	NoticeOrderStatus   NoticeKind = "order_status"   // the merchant changed an order's status
	NoticeMerchantReply NoticeKind = "merchant_reply" // a merchant wrote during a takeover
)

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
	Text           string     // the handoff reason or the merchant's reply
}
