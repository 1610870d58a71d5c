package aftersale

import (
	"context"
	"errors"
	"strings"

	"shopbot/engine/planner/intent"
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// Changes beside cancelling: a new delivery address, a line removed or
// set to a quantity. Each shows what would change and asks; only a yes in
// the next message calls the tool with confirm.

const (
	rAddressNeed      = "address_need"
	rAddressAsk       = "address_ask"
	rAddressChanged   = "address_changed"
	rCannotChange     = "cannot_change_address"
	rItemNotInOrder   = "item_not_in_order"
	rItemsAsk         = "items_ask"
	rItemsChanged     = "items_changed"
	rItemsUnchanged   = "items_unchanged"
	rItemsRefused     = "items_refused"
	rCannotChangeItem = "cannot_change_items"
)

// ChangeAddress answers IntentChangeAddress: the new address (Value) of
// the order named or the latest, asked first, written on a yes.
func ChangeAddress(ctx context.Context, t Turn, in intent.Intent) error {
	if in.Topic == "keep" {
		t.Say(rKeepOrder, nil)
		return nil
	}
	number, err := orderFor(ctx, t, in.Order)
	if err != nil || number == "" {
		return failIf(t, err)
	}
	if in.Value == "" {
		t.Say(rAddressNeed, map[string]string{"Number": number})
		return nil
	}
	args := map[string]any{"order_number": number, "address": in.Value}
	if in.Topic == "confirm" {
		args["confirm"] = true
	}
	d, ok, err := callAftersale(ctx, t, "change_order_address", args)
	var te *toolkit.ToolError
	if errors.As(err, &te) { // not an address
		t.Say(rAddressNeed, map[string]string{"Number": number})
		return nil
	}
	if err != nil || !ok {
		return failIf(t, err)
	}
	switch d.Status {
	case "confirm":
		t.Say(rAddressAsk, d)
		t.Ask(intent.PendingAddress + number + "|" + d.NewAddress)
	case "changed":
		t.Say(rAddressChanged, d)
	default:
		t.Say(rCannotChange, d)
	}
	return nil
}

// ChangeItems answers IntentChangeItems: the line of the order that the
// Query names set to Qty (0 removes it), asked first, written on a yes.
func ChangeItems(ctx context.Context, t Turn, in intent.Intent) error {
	if in.Topic == "keep" {
		t.Say(rKeepOrder, nil)
		return nil
	}
	number, err := orderFor(ctx, t, in.Order)
	if err != nil || number == "" {
		return failIf(t, err)
	}
	sku := in.Query
	if in.Topic != "confirm" {
		res, err := t.Call(ctx, "get_order_status", map[string]string{"order_number": number})
		var te *toolkit.ToolError
		if errors.As(err, &te) {
			t.Say(rNoSuchOrder, nil)
			return nil
		}
		if err != nil {
			return t.Fail(err)
		}
		if sku = lineMatching(dataAs[reply](res), in.Query); sku == "" {
			t.Say(rItemNotInOrder, map[string]string{"Number": number, "Query": in.Query})
			return nil
		}
	}
	args := map[string]any{"order_number": number, "items": []map[string]any{{"sku": sku, "qty": in.Qty}}}
	if in.Topic == "confirm" {
		args["confirm"] = true
	}
	d, ok, err := callAftersale(ctx, t, "change_order_items", args)
	var te *toolkit.ToolError
	if errors.As(err, &te) { // out of stock, the last line
		t.Say(rItemsRefused, map[string]string{"Number": number})
		return nil
	}
	if err != nil || !ok {
		return failIf(t, err)
	}
	switch d.Status {
	case "confirm":
		t.Say(rItemsAsk, d)
		t.Ask(intent.PendingItems + number + "|" + sku + "=" + itoa(in.Qty))
	case "changed":
		t.Say(rItemsChanged, d)
		t.Button("btn.orders", view.Action{Kind: view.ActOrders})
	case "unchanged":
		t.Say(rItemsUnchanged, d)
	default:
		t.Say(rCannotChangeItem, d)
	}
	return nil
}

// lineMatching is the SKU of the order line whose title shares the most
// words with query ("" when none does).
func lineMatching(d reply, query string) string {
	best, sku := 0, ""
	for _, l := range d.Order.Lines {
		title := strings.ToLower(l.Title)
		n := 0
		for _, w := range strings.Fields(strings.ToLower(query)) {
			if stem := []rune(w); len(stem) >= 3 && strings.Contains(title, string(stem[:min(len(stem), 5)])) {
				n++
			}
		}
		if strings.EqualFold(l.SKU, strings.TrimSpace(query)) {
			n = 100
		}
		if n > best {
			best, sku = n, l.SKU
		}
	}
	return sku
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}
