package tools

import (
	"context"
	"encoding/json"
	"math"
	"sort"
	"strings"
	"time"

	"shopbot/catalog"
	"shopbot/engine/session"
)

type purchaseStatsArgs struct {
	PeriodDays int    `json:"period_days"`
	GroupBy    string `json:"group_by"`
}

// purchaseStats is the shopper's purchase statistics as the model reads them.
type purchaseStats struct {
	Empty      bool        `json:"empty,omitempty"`
	PeriodDays int         `json:"period_days"`
	Since      string      `json:"since"` // YYYY-MM-DD
	GroupBy    string      `json:"group_by"`
	Orders     int         `json:"orders"`
	Units      int         `json:"units"`
	Spend      string      `json:"spend"`
	Items      []itemStat  `json:"items,omitempty"`
	Categories []groupStat `json:"categories,omitempty"`
	Weeks      []groupStat `json:"weeks,omitempty"`
	More       int         `json:"more,omitempty"` // rows left out
}

type itemStat struct {
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

type groupStat struct {
	Category  string `json:"category,omitempty"`
	Week      string `json:"week,omitempty"` // the Monday it starts on
	Purchases int    `json:"purchases"`
	Quantity  int    `json:"quantity"`
	Spend     string `json:"spend"`
}

// maxStatRows bounds the rows the model reads.
const maxStatRows = 30

const purchaseDateLayout = "2006-01-02"

func getPurchaseStatisticsTool(d *Deps) Tool {
	return Tool{
		Name:        "get_purchase_statistics",
		Description: "The shopper's purchases: count, quantity, spend, days between purchases, predicted next.",
		Schema: object(map[string]any{
			"period_days": integer("default 90", 1, 730),
			"group_by":    enum("default item", "item", "category", "week"),
		}),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (Result, error) {
			var a purchaseStatsArgs
			if err := DecodeArgs(raw, &a); err != nil {
				return Result{}, err
			}
			if a.PeriodDays == 0 {
				a.PeriodDays = 90
			}
			if a.GroupBy == "" {
				a.GroupBy = "item"
			}
			now := sessionNow(d, s)
			since := now.AddDate(0, 0, -a.PeriodDays)
			lines, err := d.orders().PurchaseHistory(ctx, s.Customer.ID, since)
			if err != nil {
				return Result{}, err
			}
			return Result{Data: purchaseStatsOf(lines, a, since)}, nil
		},
	}
}

// sessionNow is the turn's clock (fixed in tests).
func sessionNow(d *Deps, s *session.Session) time.Time {
	if s.Now.IsZero() && d.Now != nil {
		return d.Now().UTC()
	}
	return s.Now.UTC()
}

func purchaseStatsOf(lines []catalog.PurchaseLine, a purchaseStatsArgs, since time.Time) purchaseStats {
	st := purchaseStats{PeriodDays: a.PeriodDays, Since: since.Format(purchaseDateLayout), GroupBy: a.GroupBy, Empty: len(lines) == 0}
	all := newPurchaseGroup()
	for _, l := range lines {
		all.add(l)
	}
	st.Orders, st.Units, st.Spend = len(all.orders), all.qty, formatSpend(all.spend)
	switch a.GroupBy {
	case "category":
		st.Categories, st.More = groupStats(lines, func(l catalog.PurchaseLine) string {
			return firstNonEmpty(l.Category, "Uncategorized")
		}, func(g *groupStat, key string) { g.Category = key })
	case "week":
		st.Weeks, st.More = groupStats(lines, func(l catalog.PurchaseLine) string {
			return weekStart(l.OrderedAt).Format(purchaseDateLayout)
		}, func(g *groupStat, key string) { g.Week = key })
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
func groupStats(lines []catalog.PurchaseLine, key func(catalog.PurchaseLine) string, label func(*groupStat, string)) ([]groupStat, int) {
	groups := map[string]*purchaseGroup{}
	for _, l := range lines {
		k := key(l)
		if groups[k] == nil {
			groups[k] = newPurchaseGroup()
		}
		groups[k].add(l)
	}
	out := make([]groupStat, 0, len(groups))
	for k, g := range groups {
		gs := groupStat{Purchases: len(g.orders), Quantity: g.qty, Spend: formatSpend(g.spend)}
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

// itemHistory is one product's purchases, oldest first.
type itemHistory struct {
	SKU, Title, Category, Currency string
	times                          []time.Time // one per order
	qtys                           []int       // units per order
	spend                          int64
}

// itemHistories groups purchase lines (ordered by time, as PurchaseHistory
// returns them) by product, most purchased first.
func itemHistories(lines []catalog.PurchaseLine) []*itemHistory {
	bySKU := map[string]*itemHistory{}
	var out []*itemHistory
	lastOrder := map[string]string{}
	for _, l := range lines {
		key := l.SKU + "\x00" + l.Currency
		h := bySKU[key]
		if h == nil {
			h = &itemHistory{SKU: l.SKU, Currency: l.Currency}
			bySKU[key] = h
			out = append(out, h)
		}
		h.Title, h.Category = l.Title, firstNonEmpty(l.Category, h.Category)
		h.spend += l.UnitPrice * int64(l.Qty)
		if lastOrder[key] == l.OrderNumber {
			h.qtys[len(h.qtys)-1] += l.Qty
			continue
		}
		lastOrder[key] = l.OrderNumber
		h.times = append(h.times, l.OrderedAt.UTC())
		h.qtys = append(h.qtys, l.Qty)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if len(out[i].times) != len(out[j].times) {
			return len(out[i].times) > len(out[j].times)
		}
		if out[i].quantity() != out[j].quantity() {
			return out[i].quantity() > out[j].quantity()
		}
		return out[i].SKU < out[j].SKU
	})
	return out
}

func (h *itemHistory) quantity() int {
	n := 0
	for _, q := range h.qtys {
		n += q
	}
	return n
}

// avgDaysBetween is the mean interval between purchases, known from the
// second purchase on.
func (h *itemHistory) avgDaysBetween() (float64, bool) {
	n := len(h.times)
	if n < 2 {
		return 0, false
	}
	days := h.times[n-1].Sub(h.times[0]).Hours() / 24 / float64(n-1)
	return math.Round(days*10) / 10, true
}

// predictedNext is the last purchase plus the mean interval.
func (h *itemHistory) predictedNext() (time.Time, bool) {
	avg, ok := h.avgDaysBetween()
	if !ok {
		return time.Time{}, false
	}
	return h.times[len(h.times)-1].Add(time.Duration(avg * float64(24*time.Hour))), true
}

// usualQty is the median number of units per purchase (at least 1).
func (h *itemHistory) usualQty() int {
	qs := append([]int(nil), h.qtys...)
	sort.Ints(qs)
	n := len(qs)
	if n == 0 {
		return 1
	}
	m := float64(qs[n/2])
	if n%2 == 0 {
		m = math.Round(float64(qs[n/2-1]+qs[n/2]) / 2)
	}
	return max(int(m), 1)
}

func (h *itemHistory) stat() itemStat {
	st := itemStat{
		SKU: h.SKU, Title: h.Title, Category: h.Category, Purchases: len(h.times), Quantity: h.quantity(),
		Spend: catalog.FormatPrice(h.spend, h.Currency), LastPurchase: h.times[len(h.times)-1].Format(purchaseDateLayout),
	}
	if avg, ok := h.avgDaysBetween(); ok {
		st.AvgDaysBetween = &avg
	}
	if next, ok := h.predictedNext(); ok {
		st.PredictedNext = next.Format(purchaseDateLayout)
	}
	return st
}
