package tools

import (
	"context"
	"strings"
	"testing"

	"shopbot/catalog"
)

func TestGetAvailability(t *testing.T) {
	e := newTestEnv(t)
	if err := catalog.SetProductActive(context.Background(), e.db, "SHO-RUN-002", false); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sku  string
		want availability
	}{
		{"SHO-RUN-001", availability{SKU: "SHO-RUN-001", Title: "AeroStride Glide 3 Men's Road Running Shoes", Stock: 134, Status: "in_stock"}},
		{"ELE-LAP-004", availability{SKU: "ELE-LAP-004", Title: "Nexbook Creator 16 Performance Laptop, 16-inch", Stock: 2, Status: "low_stock"}},
		{"SHO-RUN-003", availability{SKU: "SHO-RUN-003", Stock: 5, Status: "low_stock"}},
		{"APP-JKT-005", availability{SKU: "APP-JKT-005", Title: "Calder & Vane Suede Trucker Jacket", Stock: 0, Status: "out_of_stock"}},
		// archived with 97 units: none of them can be sold
		{"SHO-RUN-002", availability{SKU: "SHO-RUN-002", Title: "AeroStride Glide 3 Women's Road Running Shoes", Stock: 0, Status: "out_of_stock", NoLongerSold: true}},
	} {
		res := e.call(t, "get_availability", `{"sku":"`+tc.sku+`"}`)
		got, ok := res.Data.(availability)
		if tc.want.Title == "" {
			tc.want.Title = got.Title
		}
		if !ok || got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.sku, res.Data, tc.want)
		}
		if len(res.Cards) != 0 || len(res.Buttons) != 0 {
			t.Errorf("%s: availability should not render cards", tc.sku)
		}
	}
}

func TestGetAvailabilityBadArguments(t *testing.T) {
	e := newTestEnv(t)
	for _, tc := range []struct{ args, want string }{
		{`{"sku":"NOPE-404"}`, `product "NOPE-404": not found`},
		{`{}`, "missing property 'sku'"},
		{`{"sku":["SHO-RUN-001"]}`, "want string"},
		{`{"sku":"SHO-RUN-001","chat_id":"-100123"}`, "additional"},
		{`{"sku":"SHO-RUN-001","cart_id":5}`, "additional"},
	} {
		if msg := expectToolError(t, e, "get_availability", tc.args); !strings.Contains(msg, tc.want) {
			t.Errorf("get_availability(%s): %s, want an error mentioning %q", tc.args, msg, tc.want)
		}
	}
}
