package aftersale

import (
	"strings"
	"testing"

	"shopbot/engine/locale"
)

// samples are the after-sale replies' data for TestTemplatesRender.
func samples() map[string]any {
	var d reply
	d.Status, d.NewAddress, d.NewTotal, d.ReturnBy, d.Kind, d.Reason = "confirm", "5 Elm Rd", "$3.00", "2026-12-21", "exchange", "too small"
	d.Order.Number, d.Order.Status, d.Order.Total, d.Order.Address = "SB-1", "new", "$1.00", "1 Main St"
	d.Order.Lines = append(d.Order.Lines, struct {
		SKU   string `json:"sku"`
		Title string `json:"title"`
		Qty   int    `json:"qty"`
	}{"X-1", "Thing", 1})
	d.NewLines = append(d.NewLines, struct {
		Title string `json:"title"`
		Qty   int    `json:"qty"`
		Was   int    `json:"was"`
	}{"Thing", 3, 1})
	d.Returns = append(d.Returns, struct {
		Kind   string `json:"kind"`
		Status string `json:"status"`
		Date   string `json:"date"`
		Note   string `json:"note"`
	}{"return", "approved", "2026-11-21", "send it back"})
	named := map[string]string{"Number": "SB-1", "Query": "kettle"}
	out := map[string]any{
		rAddressNeed: named, rItemNotInOrder: named, rItemsRefused: named,
		rOrders:         []order{{Number: "SB-1", Status: "new", Total: "$1.00", Date: "2026-11-21"}},
		rMoreOrders:     []order{{Number: "SB-2", Status: "shipped", Total: "$2.00", Date: "2026-11-20"}},
		rOrder:          order{Number: "SB-1", Status: "shipped", Total: "$1.00", Date: "2026-11-21", Tracking: "UPS 1"},
		rCancelAsk:      order{Number: "SB-1", Status: "new", Total: "$1.00", Date: "2026-11-21"},
		rOrderCancelled: order{Number: "SB-1", Status: "cancelled", Total: "$1.00"},
		rCannotCancel:   order{Number: "SB-1", Status: "shipped", Total: "$1.00"},
	}
	for _, k := range []string{rAddressAsk, rAddressChanged, rCannotChange, rItemsAsk, rItemsChanged, rItemsUnchanged,
		rCannotChangeItem, rReturnAsk, rReturnRequested, rReturnNotYet, rReturnClosed, rReturnStatus, rNoReturns} {
		out[k] = d
	}
	return out
}

// TestTemplatesRender: every reply of Keys renders in every language with
// its sample data (the planner's TestPlannerTemplatesRender renders the rest).
func TestTemplatesRender(t *testing.T) {
	data := samples()
	for _, lang := range locale.Languages() {
		for _, key := range Keys {
			out, err := locale.Text(lang, "planner."+key, data[key])
			if err != nil || strings.TrimSpace(out) == "" || strings.Contains(out, "<no value>") {
				t.Errorf("%s/%s: %q, %v", lang, key, out, err)
			}
		}
	}
}

func TestLineMatching(t *testing.T) {
	var d reply
	for _, l := range []struct{ sku, title string }{{"KET-1", "Glass kettle"}, {"MUG-2", "Coffee mug, blue"}} {
		d.Order.Lines = append(d.Order.Lines, struct {
			SKU   string `json:"sku"`
			Title string `json:"title"`
			Qty   int    `json:"qty"`
		}{l.sku, l.title, 1})
	}
	for query, want := range map[string]string{"the kettle": "KET-1", "blue mugs": "MUG-2", "mug-2": "MUG-2", "a teapot": "", "": ""} {
		if got := lineMatching(d, query); got != want {
			t.Errorf("lineMatching(%q) = %q, want %q", query, got, want)
		}
	}
}

func TestItoa(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 42: "42", 1000: "1000"} {
		if got := itoa(n); got != want {
			t.Errorf("itoa(%d) = %q, want %q", n, got, want)
		}
	}
}
