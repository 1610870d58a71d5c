package intent

import "strings"

// After-sale self-service (issue 30): "cancel my order", «отмените заказ
// SB-…» ask to cancel an order (the latest when no number is given); the
// planner shows it and asks for a yes, and only the next message's yes
// (State.Pending) confirms.

// IntentCancelOrder asks to cancel Order ("" the latest); Value is
// "confirm" after a yes to the question, "keep" after a no.
const IntentCancelOrder Kind = "cancel_order"

// PendingCancel prefixes State.Pending while a cancellation waits for a yes.
const PendingCancel = "cancel_order:"

var (
	vCancelVerb = ph("cancel|cancell*|отмен*|отказаться от")
	vOrderNoun  = ph("order|orders|purchase|заказ|заказа|заказы|заказов")
)

func matchCancelOrder(m *parseMsg) (Intent, bool) {
	if m.st.Checkout != nil || !hasPhrase(m.toks, vCancelVerb) {
		return Intent{}, false
	}
	number := orderNumber(m.toks)
	if number == "" && !hasPhrase(m.toks, vOrderNoun) {
		return Intent{}, false
	}
	return Intent{Kind: IntentCancelOrder, Order: number}, true
}

// matchPending reads the answer to a question the planner asked about a
// write: yes confirms it, no keeps things as they are.
func matchPending(m *parseMsg) (Intent, bool) {
	number, ok := strings.CutPrefix(m.st.Pending, PendingCancel)
	if !ok {
		return Intent{}, false
	}
	rest := cutAll(m.toks, vPolite)
	switch {
	case len(rest) > 0 && allIn(rest, ph("yes|y|yeah|yep|yup|sure|ok|okay|confirm|please do|do it|go ahead|cancel it|да|ага|конечно|подтверждаю|отменяйте|отмени|отменить|давай*")):
		return Intent{Kind: IntentCancelOrder, Order: number, Value: "confirm"}, true
	case len(rest) > 0 && allIn(rest, vNo):
		return Intent{Kind: IntentCancelOrder, Order: number, Value: "keep"}, true
	}
	return Intent{}, false
}
