package intent

import (
	"regexp"
	"strconv"
	"strings"
)

// After-sale changes (issue 30) beside cancelling (aftersale.go): a new
// delivery address for a pending order ("change the address of my order
// to 5 Elm Road, Boston", «смените адрес доставки заказа на …»), a line
// removed or set to a quantity ("remove the kettle from my order",
// "make it 3 kettles in order SB-…", «уберите чайник из заказа»), a
// return or exchange of a delivered order ("I want to return order SB-…,
// it arrived broken", «хочу обменять заказ, не подошёл размер») and its
// status ("where is my return?"). Each write is asked first; the next
// message's yes (State.Pending) confirms it.

const (
	// IntentChangeAddress: Value is the new address ("" asks for it),
	// Order the order ("" the latest); Topic "confirm" after a yes.
	IntentChangeAddress Kind = "change_address"
	// IntentChangeItems: Query names the order line (title words), Qty
	// its new quantity (0 removes it); Topic "confirm" after a yes.
	IntentChangeItems Kind = "change_items"
	// IntentReturn: Value is "return" or "exchange", Query the reason;
	// Topic "confirm" after a yes, "status" to ask where a return is.
	IntentReturn Kind = "return_order"
)

// Prefixes of State.Pending while an after-sale write waits for a yes;
// the rest is "<order>|<what>".
const (
	PendingAddress = "change_address:"
	PendingItems   = "change_items:"
	PendingReturn  = "return_order:"
)

var (
	vAddressNoun = ph("address|delivery address|shipping address|адрес|адрес доставки")
	vChangeVerb  = ph("change|update|correct|fix|new|wrong|edit|поменять|поменяйте|поменяй|измените|изменить|смените|сменить|исправьте|исправить|новый|другой|неправильный")
	vReturnVerb  = ph("return|send back|send it back|exchange|swap|replace|refund|вернуть|верните|возврат|возврата|оформить возврат|обменять|обмен|обменяйте|поменять на")
	vExchange    = ph("exchange|swap|replace|another size|different size|обменять|обмен|обменяйте|поменять на|другой размер")
	vPolicyAsk   = ph("can i|can you|could i|how|how do|how long|what is|policy|if|do you|is it possible|можно ли|можно|как|сколько|если|какие|какой срок")
	vStatusAsk   = ph("status|where is|where's|any news|what about|статус|где|что с")
	vReturnNoun  = ph("return|my return|refund|exchange|возврат|мой возврат|обмен")
	vRemoveVerb  = ph("remove|delete|drop|take out|take off|убрать|уберите|убери|удалить|удалите|удали")
	vFromOrder   = ph("from my order|from the order|from order|of my order|in my order|in the order|из заказа|из моего заказа|в заказе|в моем заказе")

	addressTail  = regexp.MustCompile(`(?i)(?:(?:^|\s)(?:to|на)\s|:)\s*(.{5,})$`) // \b is ASCII-only in Go
	reasonTail   = regexp.MustCompile(`(?i)(?:because|since|as|—|-|,|потому что|так как|:)\s*(.{3,})$`)
	quantityWord = regexp.MustCompile(`(?i)\b(?:make it|change|set|поставьте|сделайте|измените)\s+(?:it\s+)?(\d{1,2})\s+(.+?)\s+(?:in|в)\s+(?:my\s+|the\s+|мо[её]м\s+)?(?:order|заказе)`)
	removeWhat   = regexp.MustCompile(`(?i)\b(?:remove|delete|drop|take out|take off|убрать|уберите|убери|удалить|удалите|удали)\s+(?:the\s+)?(.+?)\s+(?:from|of|in|из|в)\s`)
)

// matchAftersale reads the after-sale changes and the answers to their
// questions; it runs before a message with an address in it is taken for
// a contact detail.
func matchAftersale(m *parseMsg) (Intent, bool) {
	if m.st.Checkout != nil {
		return Intent{}, false
	}
	for _, match := range []func(*parseMsg) (Intent, bool){matchPendingChange, matchChangeAddress, matchReturnStatus, matchReturn, matchChangeItems} {
		if in, ok := match(m); ok {
			return in, true
		}
	}
	return Intent{}, false
}

// matchPendingChange reads yes or no to an after-sale question.
func matchPendingChange(m *parseMsg) (Intent, bool) {
	var kind Kind
	var rest string
	for prefix, k := range map[string]Kind{PendingAddress: IntentChangeAddress, PendingItems: IntentChangeItems, PendingReturn: IntentReturn} {
		if r, ok := strings.CutPrefix(m.st.Pending, prefix); ok {
			kind, rest = k, r
		}
	}
	if kind == "" {
		return Intent{}, false
	}
	words := cutAll(m.toks, vPolite)
	number, what, _ := strings.Cut(rest, "|")
	in := Intent{Kind: kind, Order: number}
	switch {
	case len(words) > 0 && allIn(words, ph("yes|y|yeah|yep|yup|sure|ok|okay|confirm|please do|do it|go ahead|change it|да|ага|конечно|подтверждаю|давай*|меняйте|оформляйте")):
		in.Topic = "confirm"
	case len(words) > 0 && allIn(words, vNo):
		in.Topic = "keep"
	default:
		return Intent{}, false
	}
	switch kind {
	case IntentChangeAddress:
		in.Value = what
	case IntentChangeItems:
		sku, qty, _ := strings.Cut(what, "=")
		in.Query = sku
		in.Qty, _ = strconv.Atoi(qty)
	case IntentReturn:
		in.Value, in.Query, _ = strings.Cut(what, "|")
	}
	return in, true
}

func matchChangeAddress(m *parseMsg) (Intent, bool) {
	if !hasPhrase(m.toks, vAddressNoun) || !hasPhrase(m.toks, vChangeVerb) || hasPhrase(m.toks, vPolicyAsk) && !hasPhrase(m.toks, vOrderNoun) {
		return Intent{}, false
	}
	in := Intent{Kind: IntentChangeAddress, Order: orderNumber(m.toks)}
	raw := m.raw
	if i := strings.Index(strings.ToLower(raw), strings.ToLower(in.Order)); in.Order != "" && i >= 0 {
		raw = raw[i+len(in.Order):]
	}
	if sm := addressTail.FindStringSubmatch(raw); sm != nil {
		in.Value = strings.TrimSpace(strings.TrimRight(sm[1], ".!"))
	}
	return in, true
}

func matchReturnStatus(m *parseMsg) (Intent, bool) {
	if !hasPhrase(m.toks, vStatusAsk) || !hasPhrase(m.toks, vReturnNoun) {
		return Intent{}, false
	}
	return Intent{Kind: IntentReturn, Order: orderNumber(m.toks), Topic: "status"}, true
}

func matchReturn(m *parseMsg) (Intent, bool) {
	number := orderNumber(m.toks)
	if !hasPhrase(m.toks, vReturnVerb) || number == "" && (!hasPhrase(m.toks, vOrderNoun) || hasPhrase(m.toks, vPolicyAsk)) {
		return Intent{}, false
	}
	in := Intent{Kind: IntentReturn, Order: number, Value: "return", Query: m.raw}
	if hasPhrase(m.toks, vExchange) {
		in.Value = "exchange"
	}
	if sm := reasonTail.FindStringSubmatch(m.raw); sm != nil {
		in.Query = strings.TrimSpace(sm[1])
	}
	return in, true
}

func matchChangeItems(m *parseMsg) (Intent, bool) {
	if !hasPhrase(m.toks, vOrderNoun) && orderNumber(m.toks) == "" {
		return Intent{}, false
	}
	if sm := quantityWord.FindStringSubmatch(m.raw); sm != nil {
		n, _ := strconv.Atoi(sm[1])
		return Intent{Kind: IntentChangeItems, Order: orderNumber(m.toks), Query: sm[2], Qty: n}, true
	}
	if !hasPhrase(m.toks, vRemoveVerb) || !hasPhrase(m.toks, vFromOrder) && orderNumber(m.toks) == "" {
		return Intent{}, false
	}
	sm := removeWhat.FindStringSubmatch(m.raw + " ")
	if sm == nil {
		return Intent{}, false
	}
	return Intent{Kind: IntentChangeItems, Order: orderNumber(m.toks), Query: sm[1]}, true
}
