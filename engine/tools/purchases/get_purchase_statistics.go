package purchases

import (
	"cmp"
	"context"
	"encoding/json"

	"sort"
	"strings"
	"time"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/toolkit"
)

type purchaseStatsArgs struct {
	PeriodDays int    `json:"period_days"`
	GroupBy    string `json:"group_by"`
}

// Stats is the shopper's purchase statistics as the model reads them.
type Stats struct {
	Empty      bool        `json:"empty,omitempty"`
	PeriodDays int         `json:"period_days"`
	Since      string      `json:"since"` // YYYY-MM-DD
	GroupBy    string      `json:"group_by"`
	Orders     int         `json:"orders"`
	Units      int         `json:"units"`
	Spend      string      `json:"spend"`
	Items      []ItemStat  `json:"items,omitempty"`
	Categories []GroupStat `json:"categories,omitempty"`
	Weeks      []GroupStat `json:"weeks,omitempty"`
	More       int         `json:"more,omitempty"` // rows left out
}

type ItemStat struct {
	SKU            string   `json:"sku"`
	Title          string   `json:"title"`
	Category       string   `json:"category,omitempty"`
	Purchases      int      `json:"purchases"` // orders that contained it
	Quantity       int      `json:"quantity"`
	Spend          string   `json:"spend"`
	LastPurchase   string   `json:"last_purchase"`
	AvgDaysBetween *float64 `json:"avg_days_between,omitempty"`
	PredictedNext  string   `json:"predicted_next,omitempty"`
}

type GroupStat struct {
	Category  string `json:"category,omitempty"`
	Week      string `json:"week,omitempty"` // the Monday it starts on
	Purchases int    `json:"purchases"`
	Quantity  int    `json:"quantity"`
	Spend     string `json:"spend"`
}

// maxStatRows bounds the rows the model reads.
const maxStatRows = 30

const purchaseDateLayout = "2006-01-02"

// StatisticsTool is get_purchase_statistics.
func StatisticsTool(d Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "get_purchase_statistics",
		Description: "The shopper's purchases: count, quantity, spend, days between purchases, predicted next.",
		Schema: toolkit.Object(map[string]any{
			"period_days": toolkit.Integer("default 90", 1, 730),
			"group_by":    toolkit.Enum("default item", "item", "category", "week"),
		}),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a purchaseStatsArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			if a.PeriodDays == 0 {
				a.PeriodDays = 90
			}
			if a.GroupBy == "" {
				a.GroupBy = "item"
			}
			now := d.now(s)
			since := now.AddDate(0, 0, -a.PeriodDays)
			lines, err := d.Orders().PurchaseHistory(ctx, s.Customer.ID, since)
			if err != nil {
				return toolkit.Result{}, err
			}
			return toolkit.Result{Data: purchaseStatsOf(lines, a, since)}, nil
		},
	}
}

func purchaseStatsOf(lines []catalog.PurchaseLine, a purchaseStatsArgs, since time.Time) Stats {
	st := Stats{PeriodDays: a.PeriodDays, Since: since.Format(purchaseDateLayout), GroupBy: a.GroupBy, Empty: len(lines) == 0}
	all := newPurchaseGroup()
	for _, l := range lines {
		all.add(l)
	}
	st.Orders, st.Units, st.Spend = len(all.orders), all.qty, formatSpend(all.spend)
	switch a.GroupBy {
	case "category":
		st.Categories, st.More = groupStats(lines, func(l catalog.PurchaseLine) string {
			return cmp.Or(l.Category, "Uncategorized")
		}, func(g *GroupStat, key string) { g.Category = key })
	case "week":
		st.Weeks, st.More = groupStats(lines, func(l catalog.PurchaseLine) string {
			return weekStart(l.OrderedAt).Format(purchaseDateLayout)
		}, func(g *GroupStat, key string) { g.Week = key })
		sort.Slice(st.Weeks, func(i, j int) bool { return st.Weeks[i].Week < st.Weeks[j].Week })
	default:
		hs := itemHistories(lines)
		for _, h := range hs {
			st.Items = append(st.Items, h.stat())
		}
		st.Items, st.More = capRows(st.Items)
	}
	return st
}

// purchaseGroup sums the lines of one group.
type purchaseGroup struct {
	orders map[string]bool
	qty    int
	spend  map[string]int64 // by currency
}

func newPurchaseGroup() *purchaseGroup {
	return &purchaseGroup{orders: map[string]bool{}, spend: map[string]int64{}}
}

func (g *purchaseGroup) add(l catalog.PurchaseLine) {
	g.orders[l.OrderNumber] = true
	g.qty += l.Qty
	g.spend[l.Currency] += l.UnitPrice * int64(l.Qty)
}

// groupStats groups lines by key, most purchases first.
func groupStats(lines []catalog.PurchaseLine, key func(catalog.PurchaseLine) string, label func(*GroupStat, string)) ([]GroupStat, int) {
	groups := map[string]*purchaseGroup{}
	for _, l := range lines {
		k := key(l)
		if groups[k] == nil {
			groups[k] = newPurchaseGroup()
		}
		groups[k].add(l)
	}
	out := make([]GroupStat, 0, len(groups))
	for k, g := range groups {
		gs := GroupStat{Purchases: len(g.orders), Quantity: g.qty, Spend: formatSpend(g.spend)}
		label(&gs, k)
		out = append(out, gs)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Purchases != b.Purchases {
			return a.Purchases > b.Purchases
		}
		if a.Quantity != b.Quantity {
			return a.Quantity > b.Quantity
		}
		return a.Category+a.Week < b.Category+b.Week
	})
	return capRows(out)
}

func capRows[T any](rows []T) ([]T, int) {
	if len(rows) > maxStatRows {
		return rows[:maxStatRows], len(rows) - maxStatRows
	}
	return rows, 0
}

// formatSpend formats amounts by currency: "$12.50", or "$12.50 + €3.00".
func formatSpend(m map[string]int64) string {
	curs := make([]string, 0, len(m))
	for c := range m {
		curs = append(curs, c)
	}
	sort.Strings(curs)
	parts := make([]string, len(curs))
	for i, c := range curs {
		parts[i] = catalog.FormatPrice(m[c], c)
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, " + ")
}

// weekStart is the Monday (UTC) of t's week.
func weekStart(t time.Time) time.Time {
	t = t.UTC()
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	return day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
}
