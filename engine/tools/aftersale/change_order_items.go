package aftersale

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// itemsChanger is the write change_order_items makes.
type itemsChanger interface {
	ChangeOwnOrderItems(ctx context.Context, number string, want map[string]int) (applied bool, err error)
}

// quoter prices a change without writing (toolkit.Store has it).
type quoter interface {
	QuoteOrderEdit(ctx context.Context, o *catalog.Order, want map[string]int) (*catalog.OrderQuote, error)
}

type changeItemsArgs struct {
	OrderNumber string `json:"order_number"`
	Items       []struct {
		SKU      string `json:"sku"`
		Quantity int    `json:"qty"`
	} `json:"items"`
	Confirm bool `json:"confirm"`
}

// ChangeItemsTool is change_order_items: set lines of a new (unpaid)
// order to a quantity (0 removes one; a SKU not in the order adds it).
// Statuses: "confirm" (the re-quoted lines and total, nothing written),
// "changed", "unchanged", "cannot_change" (paid, shipped, delivered or
// cancelled, also when that happened meanwhile).
func ChangeItemsTool(d Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "change_order_items",
		Description: "Set an unpaid order's line quantities (0 removes, new sku adds); confirm after the shopper's yes.",
		Schema: toolkit.Object(map[string]any{
			"order_number": plainStr(20),
			"items":        lines(0),
			"confirm":      map[string]any{"type": "boolean"},
		}, "order_number", "items"),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a changeItemsArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			o, err := d.ownOrder(ctx, s, a.OrderNumber)
			if err != nil {
				return toolkit.Result{}, err
			}
			if len(a.Items) == 0 {
				return toolkit.Result{}, toolkit.Errorf("items is empty: name the lines to change")
			}
			want := map[string]int{}
			for _, it := range a.Items {
				want[strings.ToUpper(strings.TrimSpace(it.SKU))] = it.Quantity
			}
			if !o.CanEditItems() {
				return answer("cannot_change", o, nil), nil
			}
			q, ok := d.Orders().(quoter)
			if !ok {
				return toolkit.Result{}, noWrites()
			}
			quote, err := q.QuoteOrderEdit(ctx, o, want)
			if err != nil {
				return toolkit.Result{}, userError(err)
			}
			switch {
			case !quote.Changed():
				return answer("unchanged", o, nil), nil
			case !a.Confirm:
				return answer("confirm", o, quoteData(quote)), nil
			}
			_, err = d.Apply(ctx, s, "change_order_items:"+o.Number+":"+canonical(want), func(ctx context.Context, w toolkit.Writes) (*view.Notice, error) {
				ic, ok := w.(itemsChanger)
				if !ok {
					return nil, noWrites()
				}
				_, err := ic.ChangeOwnOrderItems(ctx, o.Number, want)
				return nil, err
			})
			if err != nil && !errors.Is(err, catalog.ErrInvalidTransition) && !errors.Is(err, catalog.ErrConflict) {
				return toolkit.Result{}, userError(err)
			}
			lost := err != nil
			if o, err = d.reread(ctx, o, err); err != nil {
				return toolkit.Result{}, err
			}
			if lost {
				return answer("cannot_change", o, nil), nil
			}
			return answer("changed", o, nil), nil
		},
	}
}

// userError makes a catalog error the shopper can fix (stock, a bad SKU)
// a tool error the model reads; others pass through.
func userError(err error) error {
	if errors.Is(err, catalog.ErrOutOfStock) || errors.Is(err, catalog.ErrInvalid) {
		return toolkit.Errorf("%s", strings.ReplaceAll(err.Error(), "catalog: ", ""))
	}
	return err
}

// quoteData is what the model reads of a quote.
func quoteData(q *catalog.OrderQuote) map[string]any {
	lines := make([]map[string]any, 0, len(q.Lines))
	for _, l := range q.Lines {
		lines = append(lines, map[string]any{"sku": l.SKU, "title": l.Title, "qty": l.Quantity, "was": l.Was})
	}
	data := map[string]any{"new_lines": lines, "new_total": catalog.FormatPrice(q.Total, q.Currency)}
	if q.PromoDropped {
		data["promo_dropped"] = true
	}
	return data
}

// canonical is want in a stable order (the effect's key).
func canonical(want map[string]int) string {
	skus := make([]string, 0, len(want))
	for sku := range want {
		skus = append(skus, sku)
	}
	sort.Strings(skus)
	var b strings.Builder
	for _, sku := range skus {
		b.WriteString(sku + "=" + strconv.Itoa(want[sku]) + ",")
	}
	return b.String()
}
