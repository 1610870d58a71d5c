package tools

import (
	"context"
	"encoding/json"
	"errors"
	"shopbot/engine/toolkit"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

type getOrderStatusArgs struct {
	OrderNumber string `json:"order_number"`
	Offset      int    `json:"offset"` // paging of the list without a number
}

// orderBrief is an order as the model reads it.
type orderBrief struct {
	Number   string          `json:"number"`
	Status   string          `json:"status"`
	Total    string          `json:"total"`
	Date     string          `json:"date"` // YYYY-MM-DD
	Tracking string          `json:"tracking,omitempty"`
	Lines    []orderLineData `json:"lines"`
}

type orderLineData struct {
	SKU     string `json:"sku"`
	Title   string `json:"title"`
	Variant string `json:"variant,omitempty"` // "42 / Navy"
	Qty     int    `json:"qty"`
}

func orderBriefOf(o *catalog.Order) orderBrief {
	b := orderBrief{
		Number: o.Number, Status: string(o.Status), Total: catalog.FormatPrice(o.Total, o.Currency),
		Date: o.CreatedAt.UTC().Format("2006-01-02"), Tracking: o.TrackingNote, Lines: make([]orderLineData, len(o.Items)),
	}
	for i, it := range o.Items {
		b.Lines[i] = orderLineData{SKU: it.SKU, Title: it.Title, Variant: catalog.OptionLabel(it.Options, nil), Qty: it.Quantity}
	}
	return b
}

// recentOrdersLimit is how many orders a status request without a number lists.
const recentOrdersLimit = 5

func getOrderStatusTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "get_order_status",
		Description: "Status of an order by number, or of the shopper's latest orders.",
		Schema: object(map[string]any{
			"order_number": str("e.g. SB-7KQ2M9XD", 20),
			"offset":       offsetSchema(),
		}),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a getOrderStatusArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			if number := strings.TrimSpace(a.OrderNumber); number != "" {
				return orderByNumber(ctx, d, s, number)
			}
			return recentOrders(ctx, d, s, pageOffset(a.Offset))
		},
	}
}

// orderByNumber shows an order only to the customer who placed it or, for
// a shared cart, to the chat it was ordered from. Any other order is
// reported exactly like a missing one.
func orderByNumber(ctx context.Context, d *Deps, s *session.Session, number string) (toolkit.Result, error) {
	o, err := d.orders().Order(ctx, number)
	if errors.Is(err, catalog.ErrNotFound) {
		return toolkit.Result{}, toolkit.Errorf("no order with that number")
	}
	if err != nil {
		return toolkit.Result{}, err
	}
	if o.CustomerID != s.Customer.ID && o.CartScope != s.Scope.Key() {
		return toolkit.Result{}, toolkit.Errorf("no order with that number")
	}
	return toolkit.Result{Data: map[string]any{"order": orderBriefOf(o)}, Order: view.OrderViewOf(o)}, nil
}

// recentOrders lists the shopper's orders, newest first, a page from
// offset on; the list is remembered so "more" continues it (paging.go).
func recentOrders(ctx context.Context, d *Deps, s *session.Session, offset int) (toolkit.Result, error) {
	all, err := d.orders().CustomerOrders(ctx, s.Customer.ID, offset+recentOrdersLimit+1)
	if err != nil {
		return toolkit.Result{}, err
	}
	if len(all) == 0 { // no orders at all: no list to page through
		return toolkit.Result{Data: map[string]any{"orders": []orderBrief{}, "empty": true}}, nil
	}
	os := pageOf(all, offset, recentOrdersLimit)
	data := listed(s, session.Listing{Kind: session.ListOrders},
		page{offset: offset, shown: len(os), total: knownTotal(len(all), offset, recentOrdersLimit)})
	if len(os) == 0 {
		data["orders"] = []orderBrief{}
		return toolkit.Result{Data: data}, nil
	}
	briefs := make([]orderBrief, len(os))
	for i := range os {
		briefs[i] = orderBriefOf(&os[i])
	}
	data["orders"] = briefs
	return toolkit.Result{Data: data, Order: view.OrderViewOf(&os[0]), Buttons: moreButtons(s)}, nil
}
