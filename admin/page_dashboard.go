package admin

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/panel"
)

// dashboardPage is /admin/: the last 30 days at a glance.
type dashboardPage struct {
	Days          int
	Conversations barChart
	Orders        barChart
	Revenue       barChart
	Latency       barChart
	Tokens        barChart
	Conversion    string
	Converted     int
	NewConvs      int
	TopSearches   []searchCount
	ZeroSearches  []searchCount
	Degraded      int
	Turns         int
	NeedsHuman    int
	Currency      string
}

type searchCount struct {
	Query string
	N     int
}

const dashboardDays = 30

func (s *Server) dashboard(w http.ResponseWriter, r *http.Request) {
	p, err := s.buildDashboard(r.Context())
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "dashboard", "Dashboard", "dashboard", p)
}

func (s *Server) buildDashboard(ctx context.Context) (*dashboardPage, error) {
	st, _ := s.settings.Get(ctx)
	today := s.cfg.Now().UTC().Truncate(24 * time.Hour)
	since := today.AddDate(0, 0, -(dashboardDays - 1))
	days := make([]time.Time, dashboardDays)
	for i := range days {
		days[i] = since.AddDate(0, 0, i)
	}
	p := &dashboardPage{Days: dashboardDays, Currency: st.Currency}
	for _, step := range []func() error{
		func() error { return s.dashboardSales(ctx, p, days, since, st.Currency) },
		func() error { return s.conversion(ctx, p, since) },
		func() error { return s.modelUsage(ctx, p, days, since) },
		func() error { return s.searchStats(ctx, p, since) },
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	n, err := panel.CountNeedsHuman(ctx, s.db)
	if err != nil {
		return nil, err
	}
	p.NeedsHuman = n
	p.Degraded, p.Turns = s.turnCounters()
	return p, nil
}

// dashboardSales charts conversations, orders and assisted revenue per day.
func (s *Server) dashboardSales(ctx context.Context, p *dashboardPage, days []time.Time, since time.Time, currency string) error {
	convs, err := panel.ConversationsPerDay(ctx, s.db, since)
	if err != nil {
		return err
	}
	cv := perDay(days, convs, func(r panel.DayFigures) float64 { return float64(r.N) })
	p.NewConvs = int(sum(cv))
	p.Conversations = newBarChart("Conversations per day", fmt.Sprintf("%d new", p.NewConvs), days, cv, count)

	orders, err := panel.OrdersPerDay(ctx, s.db, since, currency)
	if err != nil {
		return err
	}
	ov := perDay(days, orders, func(r panel.DayFigures) float64 { return float64(r.N) })
	rv := perDay(days, orders, func(r panel.DayFigures) float64 { return float64(r.Total) })
	p.Orders = newBarChart("Orders per day", plural(int(sum(ov)), "order", "orders"), days, ov, count)
	money := func(v float64) string { return catalog.FormatPrice(int64(v), currency) }
	p.Revenue = newBarChart("Assisted revenue per day", money(sum(rv))+" (orders placed through the bot, not cancelled)", days, rv, money)
	return nil
}

func perDay(days []time.Time, rows []panel.DayFigures, val func(panel.DayFigures) float64) []float64 {
	by := map[string]float64{}
	for _, r := range rows {
		by[r.Day] = val(r)
	}
	out := make([]float64, len(days))
	for i, d := range days {
		out[i] = by[d.Format(time.DateOnly)]
	}
	return out
}

func sum(vs []float64) float64 {
	t := 0.0
	for _, v := range vs {
		t += v
	}
	return t
}

func count(v float64) string { return fmt.Sprintf("%.0f", v) }

// conversion is the share of the period's new conversations whose chat
// placed an order.
func (s *Server) conversion(ctx context.Context, p *dashboardPage, since time.Time) error {
	n, err := panel.ConvertedConversations(ctx, s.db, since)
	if err != nil {
		return err
	}
	p.Converted = n
	p.Conversion = "—"
	if p.NewConvs > 0 {
		p.Conversion = fmt.Sprintf("%.1f %%", float64(p.Converted)*100/float64(p.NewConvs))
	}
	return nil
}

// modelUsage charts the model's average latency and tokens per day (model
// calls only: not the offline planner, not merchants).
func (s *Server) modelUsage(ctx context.Context, p *dashboardPage, days []time.Time, since time.Time) error {
	rows, err := panel.ModelUsagePerDay(ctx, s.db, since)
	if err != nil {
		return err
	}
	lat := perDay(days, rows, func(r panel.DayFigures) float64 { return r.Latency })
	tok := perDay(days, rows, func(r panel.DayFigures) float64 { return float64(r.Tokens) })
	calls := 0
	for _, r := range rows {
		calls += r.N
	}
	p.Latency = newBarChart("Model latency (average per call)", plural(calls, "model call", "model calls"), days, lat, func(v float64) string { return fmt.Sprintf("%.0f ms", v) })
	p.Tokens = newBarChart("Model tokens per day", fmt.Sprintf("%.0f tokens", sum(tok)), days, tok, count)
	return nil
}

// searchStats lists the most frequent searches and those that found
// nothing.
func (s *Server) searchStats(ctx context.Context, p *dashboardPage, since time.Time) error {
	top, zero, err := panel.SearchCounts(ctx, s.db, since)
	if err != nil {
		return err
	}
	p.TopSearches, p.ZeroSearches = topN(top, 10), topN(zero, 10)
	return nil
}

func topN(m map[string]int, n int) []searchCount {
	out := make([]searchCount, 0, len(m))
	for q, c := range m {
		out = append(out, searchCount{q, c})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].N != out[j].N {
			return out[i].N > out[j].N
		}
		return out[i].Query < out[j].Query
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// turnCounters reads the engine's counters from the registry: degraded
// turns (the offline planner answered although a model is configured) and
// all turns since the process started.
func (s *Server) turnCounters() (degraded, turns int) {
	if s.reg == nil {
		return 0, 0
	}
	mfs, err := s.reg.Gather()
	if err != nil {
		return 0, 0
	}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			switch mf.GetName() {
			case "shopbot_degraded_turns_total":
				degraded += int(m.GetCounter().GetValue())
			case "shopbot_turns_total":
				turns += int(m.GetCounter().GetValue())
			}
		}
	}
	return degraded, turns
}

// plural is "1 order", "2 orders".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
