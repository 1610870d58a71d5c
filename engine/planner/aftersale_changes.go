package planner

import (
	"context"
	"errors"
	"strings"

	"shopbot/engine/planner/intent"
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// After-sale changes (issue 30) beside cancelling (aftersale.go): a new
// delivery address, a line removed or set to a quantity, a return or
// exchange and its status. Each shows what would change and asks; only a
// yes in the next message (State.Pending) calls the tool with confirm.

const (
	rAddressNeed      replyKey = "address_need"
	rAddressAsk       replyKey = "address_ask"
	rAddressChanged   replyKey = "address_changed"
	rCannotChange     replyKey = "cannot_change_address"
	rItemNotInOrder   replyKey = "item_not_in_order"
	rItemsAsk         replyKey = "items_ask"
	rItemsChanged     replyKey = "items_changed"
	rItemsUnchanged   replyKey = "items_unchanged"
	rItemsRefused     replyKey = "items_refused"
	rCannotChangeItem replyKey = "cannot_change_items"
	rReturnAsk        replyKey = "return_ask"
	rReturnRequested  replyKey = "return_requested"
	rReturnNotYet     replyKey = "return_not_delivered"
	rReturnClosed     replyKey = "return_window_closed"
	rReturnStatus     replyKey = "return_status"
	rNoReturns        replyKey = "no_returns"
)

// aftersaleReply is what the after-sale tools return.
type aftersaleReply struct {
	Status string `json:"status"`
	Order  struct {
		Number  string `json:"number"`
		Status  string `json:"status"`
		Total   string `json:"total"`
		Address string `json:"address"`
		Lines   []struct {
			SKU   string `json:"sku"`
			Title string `json:"title"`
			Qty   int    `json:"qty"`
		} `json:"lines"`
	} `json:"order"`
	NewAddress string `json:"new_address"`
	NewTotal   string `json:"new_total"`
	NewLines   []struct {
		Title string `json:"title"`
		Qty   int    `json:"qty"`
		Was   int    `json:"was"`
	} `json:"new_lines"`
	ReturnBy string `json:"return_by"`
	Returns  []struct {
		Kind   string `json:"kind"`
		Status string `json:"status"`
		Date   string `json:"date"`
		Note   string `json:"note"`
	} `json:"returns"`
	// Kind and Reason are the return asked, for the question.
	Kind, Reason string
}

// orderFor is the order the shopper named, or their latest; "" after
// saying there is none.
func (t *plannerTurn) orderFor(ctx context.Context, number string) (string, error) {
	if number != "" {
		return number, nil
	}
	res, err := t.call(ctx, "get_order_status", map[string]string{})
	if err != nil {
		return "", err
	}
	d := dataAs[struct {
		Orders []orderView `json:"orders"`
	}](res)
	if len(d.Orders) == 0 {
		t.say(rNoOrders, nil)
		return "", nil
	}
	return d.Orders[0].Number, nil
}

// callAftersale calls an after-sale tool; ok is false when the shopper
// was told the order is not theirs (or does not exist).
func (t *plannerTurn) callAftersale(ctx context.Context, name string, args map[string]any) (aftersaleReply, bool, error) {
	res, err := t.call(ctx, name, args)
	var te *toolkit.ToolError
	if errors.As(err, &te) && strings.Contains(te.Msg, "no order") {
		t.say(rNoSuchOrder, nil)
		return aftersaleReply{}, false, nil
	}
	if err != nil {
		return aftersaleReply{}, false, err
	}
	return dataAs[aftersaleReply](res), true, nil
}

func (t *plannerTurn) changeAddress(ctx context.Context, in intent.Intent) error {
	if in.Topic == "keep" {
		t.say(rKeepOrder, nil)
		return nil
	}
	number, err := t.orderFor(ctx, in.Order)
	if err != nil || number == "" {
		return t.failIf(err)
	}
	if in.Value == "" {
		t.say(rAddressNeed, map[string]string{"Number": number})
		return nil
	}
	args := map[string]any{"order_number": number, "address": in.Value}
	if in.Topic == "confirm" {
		args["confirm"] = true
	}
	d, ok, err := t.callAftersale(ctx, "change_order_address", args)
	var te *toolkit.ToolError
	if errors.As(err, &te) { // not an address
		t.say(rAddressNeed, map[string]string{"Number": number})
		return nil
	}
	if err != nil || !ok {
		return t.failIf(err)
	}
	switch d.Status {
	case "confirm":
		t.say(rAddressAsk, d)
		t.s.State.Pending = intent.PendingAddress + number + "|" + d.NewAddress
	case "changed":
		t.say(rAddressChanged, d)
	default:
		t.say(rCannotChange, d)
	}
	return nil
}

func (t *plannerTurn) changeItems(ctx context.Context, in intent.Intent) error {
	if in.Topic == "keep" {
		t.say(rKeepOrder, nil)
		return nil
	}
	number, err := t.orderFor(ctx, in.Order)
	if err != nil || number == "" {
		return t.failIf(err)
	}
	sku := in.Query
	if in.Topic != "confirm" {
		res, err := t.call(ctx, "get_order_status", map[string]string{"order_number": number})
		var te *toolkit.ToolError
		if errors.As(err, &te) {
			t.say(rNoSuchOrder, nil)
			return nil
		}
		if err != nil {
			return t.fail(err)
		}
		if sku = lineMatching(dataAs[aftersaleReply](res), in.Query); sku == "" {
			t.say(rItemNotInOrder, map[string]string{"Number": number, "Query": in.Query})
			return nil
		}
	}
	args := map[string]any{"order_number": number, "items": []map[string]any{{"sku": sku, "qty": in.Qty}}}
	if in.Topic == "confirm" {
		args["confirm"] = true
	}
	d, ok, err := t.callAftersale(ctx, "change_order_items", args)
	var te *toolkit.ToolError
	if errors.As(err, &te) { // out of stock, the last line
		t.say(rItemsRefused, map[string]string{"Number": number})
		return nil
	}
	if err != nil || !ok {
		return t.failIf(err)
	}
	switch d.Status {
	case "confirm":
		t.say(rItemsAsk, d)
		t.s.State.Pending = intent.PendingItems + number + "|" + sku + "=" + itoa(in.Qty)
	case "changed":
		t.say(rItemsChanged, d)
		t.button("btn.orders", view.Action{Kind: view.ActOrders})
	case "unchanged":
		t.say(rItemsUnchanged, d)
	default:
		t.say(rCannotChangeItem, d)
	}
	return nil
}

// lineMatching is the SKU of the order line whose title shares the most
// words with query ("" when none does).
func lineMatching(d aftersaleReply, query string) string {
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

func (t *plannerTurn) returnOrder(ctx context.Context, in intent.Intent) error {
	if in.Topic == "keep" {
		t.say(rKeepOrder, nil)
		return nil
	}
	number, err := t.orderFor(ctx, in.Order)
	if err != nil || number == "" {
		return t.failIf(err)
	}
	args := map[string]any{"order_number": number}
	if in.Topic == "confirm" {
		args["confirm"], args["kind"], args["reason"] = true, in.Value, in.Query
	}
	d, ok, err := t.callAftersale(ctx, "request_return", args)
	if err != nil || !ok {
		return t.failIf(err)
	}
	d.Kind, d.Reason = in.Value, in.Query
	switch {
	case in.Topic == "status" && len(d.Returns) == 0:
		t.say(rNoReturns, d)
	case in.Topic == "status":
		t.say(rReturnStatus, d)
	case d.Status == "confirm":
		t.say(rReturnAsk, d)
		t.s.State.Pending = intent.PendingReturn + number + "|" + in.Value + "|" + in.Query
	case d.Status == "requested":
		t.say(rReturnRequested, d)
	case d.Status == "window_closed":
		t.say(rReturnClosed, d)
	default:
		t.say(rReturnNotYet, d)
	}
	return nil
}

// failIf is t.fail for an error, nil for none.
func (t *plannerTurn) failIf(err error) error {
	if err != nil {
		return t.fail(err)
	}
	return nil
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
