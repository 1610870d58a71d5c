package purchases

import (
	"context"
	"encoding/json"
	"sort"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/clip"
	"shopbot/engine/session"
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

type shoppingListArgs struct {
	DaysAhead int      `json:"days_ahead"`
	Budget    *float64 `json:"budget"`
}

// ShoppingList is the list as the model reads it.
type ShoppingList struct {
	Empty      bool           `json:"empty,omitempty"`
	Hint       string         `json:"hint,omitempty"`
	DaysAhead  int            `json:"days_ahead,omitempty"`
	DueBy      string         `json:"due_by,omitempty"` // YYYY-MM-DD
	Items      []ShoppingItem `json:"items"`
	Total      string         `json:"total,omitempty"` // of the items in stock
	Budget     string         `json:"budget,omitempty"`
	OverBudget []ShoppingItem `json:"over_budget,omitempty"`
	NextDue    *ShoppingItem  `json:"next_due,omitempty"` // when nothing is due yet
}

type ShoppingItem struct {
	SKU         string `json:"sku"`
	Title       string `json:"title"`
	Qty         int    `json:"qty"`
	UsualQty    int    `json:"usual_qty,omitempty"` // when stock is below it
	Price       string `json:"price"`
	LineTotal   string `json:"line_total"`
	Due         string `json:"due"` // predicted next purchase, YYYY-MM-DD
	OverdueDays int    `json:"overdue_days,omitempty"`
	InStock     bool   `json:"in_stock"`
	Stock       int    `json:"stock"`

	lineTotal int64
	product   *catalog.Product
}

// shoppingHistoryDays is how far back the list looks for habits.
const shoppingHistoryDays = 730

// maxShoppingButtons bounds the "Add" buttons under the list.
const maxShoppingButtons = 5

// ShoppingListTool is generate_shopping_list.
func ShoppingListTool(d Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "generate_shopping_list",
		Description: "Products the shopper will need within days_ahead, from their purchase history; budget in the shop currency.",
		Schema: toolkit.Object(map[string]any{
			"days_ahead": toolkit.Integer("default 7", 1, 90),
			"budget":     toolkit.Num("spending limit", 0),
		}),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a shoppingListArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			if a.DaysAhead == 0 {
				a.DaysAhead = 7
			}
			budget := int64(-1)
			if a.Budget != nil {
				var err error
				if budget, err = toolkit.ToMinor(*a.Budget, s.Currency); err != nil {
					return toolkit.Result{}, err
				}
			}
			now := d.now(s)
			lines, err := d.Orders().PurchaseHistory(ctx, s.Customer.ID, now.AddDate(0, 0, -shoppingHistoryDays))
			if err != nil {
				return toolkit.Result{}, err
			}
			if len(lines) == 0 {
				return toolkit.Result{Data: ShoppingList{Empty: true, Items: []ShoppingItem{},
					Hint: "no purchases yet, so there are no habits to predict; offer to search the catalog instead"}}, nil
			}
			return shoppingListResult(ctx, d, s, itemHistories(lines), now, a.DaysAhead, budget)
		},
	}
}

func shoppingListResult(ctx context.Context, d Deps, s *session.Session, hs []*itemHistory, now time.Time, daysAhead int, budget int64) (toolkit.Result, error) {
	dueBy := now.AddDate(0, 0, daysAhead)
	due, next := dueItems(hs, dueBy)
	products, err := sellableProducts(ctx, d, append(due, next...))
	if err != nil {
		return toolkit.Result{}, err
	}
	list := ShoppingList{DaysAhead: daysAhead, DueBy: dueBy.Format(purchaseDateLayout), Items: []ShoppingItem{}}
	var total int64
	over := false
	for _, h := range due {
		p := products[h.SKU]
		if p == nil {
			continue
		}
		it := newShoppingItem(h, p, now)
		switch {
		case !it.InStock:
			list.Items = append(list.Items, it)
		case !over && (budget < 0 || total+it.lineTotal <= budget):
			total += it.lineTotal
			list.Items = append(list.Items, it)
		default:
			over = true // the rest is listed separately, in order of urgency
			list.OverBudget = append(list.OverBudget, it)
		}
	}
	list.Total = catalog.FormatPrice(total, s.Currency)
	if budget >= 0 {
		list.Budget = catalog.FormatPrice(budget, s.Currency)
	}
	if len(list.Items) == 0 && len(list.OverBudget) == 0 {
		list.Hint = "nothing is due in this period"
		for _, h := range next {
			if p := products[h.SKU]; p != nil {
				it := newShoppingItem(h, p, now)
				list.NextDue = &it
				break
			}
		}
	}
	return shoppingResult(s, list), nil
}

// dueItems returns the products whose predicted next purchase is before
// dueBy, most urgent first, and the others with a prediction, soonest first.
func dueItems(hs []*itemHistory, dueBy time.Time) (due, later []*itemHistory) {
	for _, h := range hs {
		next, ok := h.predictedNext()
		switch {
		case !ok:
		case !next.After(dueBy):
			due = append(due, h)
		default:
			later = append(later, h)
		}
	}
	byNext := func(xs []*itemHistory) {
		sort.SliceStable(xs, func(i, j int) bool {
			a, _ := xs[i].predictedNext()
			b, _ := xs[j].predictedNext()
			if !a.Equal(b) {
				return a.Before(b)
			}
			return xs[i].SKU < xs[j].SKU
		})
	}
	byNext(due)
	byNext(later)
	return due, later
}

// sellableProducts loads the current products of the histories by SKU,
// leaving out archived and deleted ones.
func sellableProducts(ctx context.Context, d Deps, hs []*itemHistory) (map[string]*catalog.Product, error) {
	skus := make([]string, len(hs))
	for i, h := range hs {
		skus[i] = h.SKU
	}
	ps, err := d.Products().Products(ctx, skus)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*catalog.Product, len(ps))
	for i := range ps {
		if ps[i].Active {
			out[ps[i].SKU] = &ps[i]
		}
	}
	return out, nil
}

func newShoppingItem(h *itemHistory, p *catalog.Product, now time.Time) ShoppingItem {
	next, _ := h.predictedNext()
	qty := h.usualQty()
	it := ShoppingItem{
		SKU: p.SKU, Title: p.Title, Qty: qty, Price: catalog.FormatPrice(p.Price, p.Currency),
		Due: next.Format(purchaseDateLayout), InStock: p.InStock(), Stock: view.AvailableStock(p), product: p,
	}
	if late := now.Sub(next); late >= 24*time.Hour {
		it.OverdueDays = int(late / (24 * time.Hour))
	}
	if it.InStock && it.Stock < qty {
		it.Qty, it.UsualQty = it.Stock, qty
	}
	it.lineTotal = p.Price * int64(it.Qty)
	it.LineTotal = catalog.FormatPrice(it.lineTotal, p.Currency)
	return it
}

// shoppingResult adds cards for the listed products and a button to add
// each of the first ones in stock.
func shoppingResult(s *session.Session, list ShoppingList) toolkit.Result {
	res := toolkit.Result{Data: list}
	for _, it := range list.Items {
		res.Cards = append(res.Cards, view.CardOf(it.product))
		if it.InStock && len(res.Buttons) < maxShoppingButtons {
			res.Buttons = append(res.Buttons, view.NewButton(toolkit.Label(s, toolkit.BtnAdd)+" "+clip.Shorten(it.Title, 28), view.Action{Kind: view.ActAdd, SKU: it.SKU, Qty: it.Qty}))
		}
	}
	s.State.Remember(res.Cards)
	return res
}
