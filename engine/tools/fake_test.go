package tools

import (
	"context"
	"errors"
	"shopbot/engine/toolkit"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/engine/session"
)

// fakeProducts is a Products of function fields: a test sets the ones its
// tool reads; the others fail.
type fakeProducts struct {
	product func(ctx context.Context, sku string) (*catalog.Product, error)
}

var errFakeUnset = errors.New("fake: not set")

func (f fakeProducts) Product(ctx context.Context, sku string) (*catalog.Product, error) {
	if f.product == nil {
		return nil, errFakeUnset
	}
	return f.product(ctx, sku)
}

func (fakeProducts) Products(context.Context, []string) ([]catalog.Product, error) {
	return nil, errFakeUnset
}

func (fakeProducts) Categories(context.Context) ([]catalog.Category, error) {
	return nil, errFakeUnset
}

func (fakeProducts) CategoryCounts(context.Context) (map[int64]int, error) {
	return nil, errFakeUnset
}

func (fakeProducts) ProductByID(context.Context, int64) (*catalog.Product, error) {
	return nil, errFakeUnset
}

func (fakeProducts) Variants(context.Context, int64) ([]catalog.Product, error) {
	return nil, errFakeUnset
}

func (fakeProducts) Reviews(context.Context, int64, int) ([]catalog.Review, error) {
	return nil, errFakeUnset
}

// TestGetAvailabilityWithFakeStore runs get_availability with no database:
// the tool reads only through Products, so stock, status and an unknown
// SKU come out of a fake exactly as they do out of the catalog.
func TestGetAvailabilityWithFakeStore(t *testing.T) {
	stock := map[string]*catalog.Product{
		"LOW-1":  {SKU: "LOW-1", Title: "Low", Stock: 3, Active: true},
		"MANY-1": {SKU: "MANY-1", Title: "Many", Stock: 40, Active: true},
		"GONE-1": {SKU: "GONE-1", Title: "Gone", Stock: 50, Active: false},
	}
	var asked []string
	deps := &Deps{Currency: "USD", Products: fakeProducts{product: func(_ context.Context, sku string) (*catalog.Product, error) {
		asked = append(asked, sku)
		if p, ok := stock[sku]; ok {
			return p, nil
		}
		return nil, catalog.ErrNotFound
	}}}
	tb, err := toolkit.NewToolbox(Tools(deps)...)
	if err != nil {
		t.Fatal(err)
	}
	s := &session.Session{State: &session.State{}, Currency: "USD"}
	for _, tc := range []struct {
		sku  string
		want availability
	}{
		{"LOW-1", availability{SKU: "LOW-1", Title: "Low", Stock: 3, Status: "low_stock"}},
		{"MANY-1", availability{SKU: "MANY-1", Title: "Many", Stock: 40, Status: "in_stock"}},
		{"GONE-1", availability{SKU: "GONE-1", Title: "Gone", Stock: 0, Status: "out_of_stock", NoLongerSold: true}},
	} {
		res, err := tb.Call(context.Background(), s, "get_availability", `{"sku":"`+tc.sku+`"}`)
		if got, ok := res.Data.(availability); err != nil || !ok || got != tc.want {
			t.Errorf("%s: %+v, %v; want %+v", tc.sku, res.Data, err, tc.want)
		}
	}
	res, err := tb.Call(context.Background(), s, "get_availability", `{"sku":"NOPE-1"}`)
	if !errors.Is(err, catalog.ErrNotFound) {
		t.Fatalf("unknown SKU: %v, want catalog.ErrNotFound", err)
	}
	if msg, isErr := toolkit.ModelMessage(res, err); !isErr || !strings.Contains(msg, "not found") {
		t.Errorf("unknown SKU reads %s (error %v), want a not-found error for the model", msg, isErr)
	}
	if strings.Join(asked, ",") != "LOW-1,MANY-1,GONE-1,NOPE-1" {
		t.Errorf("asked the store for %v", asked)
	}
}
