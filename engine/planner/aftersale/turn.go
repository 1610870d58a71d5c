package aftersale

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// Turn is what the after-sale paths need of the planner's turn in
// progress (engine/planner's plannerTurn, through a thin adapter).
type Turn interface {
	// Call runs a tool through the Toolbox and records it in the plan.
	Call(ctx context.Context, name string, args any) (toolkit.Result, error)
	// Fail answers a tool error the shopper can act on and returns nil;
	// any other error is returned, wrapped, to fail the turn.
	Fail(err error) error
	// Say appends the reply planner.KEY of the text catalogue, filled
	// with data, to the plan's text.
	Say(key string, data any)
	// Button adds a quick reply labelled planner.KEY.
	Button(key string, a view.Action)
	// More offers the next page of the remembered list (the State's
	// Listing) when more remain.
	More()
	// Ask sets the State's Pending: the write a yes in the next message
	// confirms (intent.PendingCancel and the others, with their slots).
	Ask(pending string)
}

// Replies of the planner's own, said here too.
const (
	rNoOrders    = "no_orders"
	rNoSuchOrder = "no_such_order"
	rKeepOrder   = "keep_order"
)

// Keys are the replies (planner.KEY) this package words; the planner
// leaves their template test to TestTemplatesRender here.
var Keys = []string{
	rOrders, rOrder, rMoreOrders,
	rKeepOrder, rCancelAsk, rOrderCancelled, rCannotCancel,
	rAddressNeed, rAddressAsk, rAddressChanged, rCannotChange,
	rItemNotInOrder, rItemsAsk, rItemsChanged, rItemsUnchanged, rItemsRefused, rCannotChangeItem,
	rReturnAsk, rReturnRequested, rReturnNotYet, rReturnClosed, rReturnStatus, rNoReturns,
}

// order is an order in get_order_status' and cancel_order's data.
type order struct {
	Number   string `json:"number"`
	Status   string `json:"status"`
	Total    string `json:"total"`
	Date     string `json:"date"`
	Tracking string `json:"tracking"`
	Lines    []struct {
		Title string `json:"title"`
		Qty   int    `json:"qty"`
	} `json:"lines"`
}

// reply is what the after-sale tools return.
type reply struct {
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

// dataAs reads a tool's Data through its JSON form, as the planner does:
// the JSON is the contract the model reads, so the planner reads the same.
func dataAs[T any](res toolkit.Result) T {
	var v T
	if b, err := json.Marshal(res.Data); err == nil {
		_ = json.Unmarshal(b, &v) // a shape mismatch leaves zero values
	}
	return v
}

// orderFor is the order the shopper named, or their latest; "" after
// saying there is none.
func orderFor(ctx context.Context, t Turn, number string) (string, error) {
	if number != "" {
		return number, nil
	}
	res, err := t.Call(ctx, "get_order_status", map[string]string{})
	if err != nil {
		return "", err
	}
	d := dataAs[struct {
		Orders []order `json:"orders"`
	}](res)
	if len(d.Orders) == 0 {
		t.Say(rNoOrders, nil)
		return "", nil
	}
	return d.Orders[0].Number, nil
}

// callAftersale calls an after-sale tool; ok is false when the shopper
// was told the order is not theirs (or does not exist).
func callAftersale(ctx context.Context, t Turn, name string, args map[string]any) (reply, bool, error) {
	res, err := t.Call(ctx, name, args)
	var te *toolkit.ToolError
	if errors.As(err, &te) && strings.Contains(te.Msg, "no order") {
		t.Say(rNoSuchOrder, nil)
		return reply{}, false, nil
	}
	if err != nil {
		return reply{}, false, err
	}
	return dataAs[reply](res), true, nil
}

// failIf is t.Fail for an error, nil for none.
func failIf(t Turn, err error) error {
	if err != nil {
		return t.Fail(err)
	}
	return nil
}
