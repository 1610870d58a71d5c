package purchases

import (
	"cmp"
	"math"
	"sort"
	"time"

	"shopbot/catalog"
)

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
		h.Title, h.Category = l.Title, cmp.Or(l.Category, h.Category)
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

func (h *itemHistory) stat() ItemStat {
	st := ItemStat{
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
