package view

import (
	"fmt"
	"strconv"
	"strings"

	"shopbot/catalog/clip"
)

// ActionKind names what a button does. Buttons work without a model.
type ActionKind string

const (
	ActAdd        ActionKind = "add"     // add Qty of SKU to the cart
	ActSet        ActionKind = "set"     // set SKU's quantity to Qty (0 removes)
	ActRemove     ActionKind = "rm"      // remove SKU
	ActDetails    ActionKind = "det"     // show SKU's details
	ActSimilar    ActionKind = "sim"     // products like SKU
	ActCart       ActionKind = "cart"    // show the cart
	ActCheckout   ActionKind = "co"      // start checkout
	ActOrders     ActionKind = "ord"     // recent orders
	ActCategories ActionKind = "cats"    // top-level categories, or Arg's children
	ActCategory   ActionKind = "cat"     // products of category Arg
	ActConfirm    ActionKind = "confirm" // confirm the checkout summary
	ActDelivery   ActionKind = "dlv"     // choose delivery method Arg (its id) at checkout
	ActNotify     ActionKind = "ntf"     // tell me when out-of-stock SKU is back
	ActOption     ActionKind = "opt"     // variant picker of parent SKU; Arg the value indexes chosen so far ("2.0")
	ActMore       ActionKind = "more"    // the next page of the list Arg names (see engine/tools paging)
	ActRate       ActionKind = "rate"    // the shopper's CSAT rating Qty (1–5) of the conversation
)

// Action is a button press.
type Action struct {
	Kind ActionKind
	SKU  string
	Qty  int
	Arg  string
}

// Encode packs an action into a short string for callback data ("add|SKU|1"),
// within Telegram's 64-byte limit for ordinary SKUs and category ids.
func (a Action) Encode() string {
	parts := []string{string(a.Kind), a.SKU}
	if a.Qty != 0 || a.Arg != "" {
		parts = append(parts, strconv.Itoa(a.Qty))
	}
	if a.Arg != "" {
		parts = append(parts, a.Arg)
	}
	return strings.TrimRight(strings.Join(parts, "|"), "|")
}

// ParseAction unpacks Encode's output. It rejects unknown kinds and
// malformed quantities, since callback data comes from clients.
func ParseAction(s string) (Action, error) {
	parts := strings.SplitN(s, "|", 4)
	a := Action{Kind: ActionKind(parts[0])}
	switch a.Kind {
	case ActAdd, ActSet, ActRemove, ActDetails, ActSimilar, ActCart, ActCheckout, ActOrders, ActCategories, ActCategory, ActConfirm, ActDelivery, ActNotify,
		ActOption, ActMore, ActRate:
	default:
		return Action{}, fmt.Errorf("engine: unknown action %q", clip.Shorten(parts[0], 20))
	}
	if len(parts) > 1 {
		a.SKU = parts[1]
	}
	if len(parts) > 2 && parts[2] != "" {
		n, err := strconv.Atoi(parts[2])
		if err != nil || n < 0 || n > 99 {
			return Action{}, fmt.Errorf("engine: bad quantity in action %q", clip.Shorten(s, 40))
		}
		a.Qty = n
	}
	if len(parts) > 3 {
		a.Arg = parts[3]
	}
	return a, nil
}
