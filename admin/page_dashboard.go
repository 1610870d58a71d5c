package admin

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"shopbot/catalog"
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
	day := dayExpr(s.db)

	var convs []dayRow
	if err := s.db.NewSelect().Model((*catalog.Conversation)(nil)).ColumnExpr(day+" AS day, COUNT(*) AS n").
		Where("created_at >= ?", since).GroupExpr(day).Scan(ctx, &convs); err != nil {
		return nil, fmt.Errorf("admin: dashboard conversations: %w", err)
	}
	cv := perDay(days, convs, func(r dayRow) float64 { return float64(r.N) })
	p.NewConvs = int(sum(cv))
	p.Conversations = newBarChart("Conversations per day", fmt.Sprintf("%d new", p.NewConvs), days, cv, count)

	var orders []dayRow
	if err := s.db.NewSelect().Model((*catalog.Order)(nil)).
		ColumnExpr(day+" AS day, COUNT(*) AS n, COALESCE(SUM(total), 0) AS total").
		Where("created_at >= ?", since).Where("status <> ?", catalog.StatusCancelled).Where("currency = ?", st.Currency).
		GroupExpr(day).Scan(ctx, &orders); err != nil {
		return nil, fmt.Errorf("admin: dashboard orders: %w", err)
	}
	ov := perDay(days, orders, func(r dayRow) float64 { return float64(r.N) })
	rv := perDay(days, orders, func(r dayRow) float64 { return float64(r.Total) })
	p.Orders = newBarChart("Orders per day", fmt.Sprintf("%d orders", int(sum(ov))), days, ov, count)
	money := func(v float64) string { return catalog.FormatPrice(int64(v), st.Currency) }
	p.Revenue = newBarChart("Assisted revenue per day", money(sum(rv))+" (orders placed through the bot, not cancelled)", days, rv, money)

	if err := s.conversion(ctx, p, since); err != nil {
		return nil, err
	}
	if err := s.modelUsage(ctx, p, days, since); err != nil {
		return nil, err
	}
	if err := s.searchStats(ctx, p, since); err != nil {
		return nil, err
	}
	n, err := s.db.NewSelect().Model((*catalog.Conversation)(nil)).Where("needs_human = ?", true).Count(ctx)
	if err != nil {
		return nil, err
	}
	p.NeedsHuman = int(n)
	p.Degraded, p.Turns = s.turnCounters()
	return p, nil
}

// dayRow is one day of a GROUP BY.
type dayRow struct {
	Day     string  `bun:"day"`
	N       int     `bun:"n"`
	Total   int64   `bun:"total"`
	Latency float64 `bun:"latency"`
	Tokens  int64   `bun:"tokens"`
}

// dayExpr is the UTC day of created_at as YYYY-MM-DD. Times are stored
// in UTC, so SQLite's text timestamps start with the day.
func dayExpr(db bun.IDB) string {
	if db.Dialect().Name() == dialect.PG {
		return "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
	}
	return "substr(created_at, 1, 10)"
}

func perDay(days []time.Time, rows []dayRow, val func(dayRow) float64) []float64 {
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
	n, err := s.db.NewSelect().TableExpr("conversations AS c").Where("c.created_at >= ?", since).
		Where("EXISTS (SELECT 1 FROM orders AS o WHERE o.channel = c.channel AND o.chat_id = c.chat_id AND o.thread_id = c.thread_id AND o.created_at >= c.created_at)").
		Count(ctx)
	if err != nil {
		return fmt.Errorf("admin: dashboard conversion: %w", err)
	}
	p.Converted = int(n)
	p.Conversion = "—"
	if p.NewConvs > 0 {
		p.Conversion = fmt.Sprintf("%.1f %%", float64(p.Converted)*100/float64(p.NewConvs))
	}
	return nil
}

// modelUsage charts the model's average latency and tokens per day (model
// calls only: not the offline planner, not merchants).
func (s *Server) modelUsage(ctx context.Context, p *dashboardPage, days []time.Time, since time.Time) error {
	var rows []dayRow
	day := dayExpr(s.db)
	err := s.db.NewSelect().Model((*catalog.Message)(nil)).
		ColumnExpr(day+" AS day, COUNT(*) AS n, AVG(latency_ms) AS latency, COALESCE(SUM(prompt_tokens + completion_tokens), 0) AS tokens").
		Where("tool_name = ''").Where("created_at >= ?", since).Where("role = ?", catalog.RoleAssistant).
		Where("prompt_tokens + completion_tokens > 0").
		GroupExpr(day).Scan(ctx, &rows)
	if err != nil {
		return fmt.Errorf("admin: dashboard model usage: %w", err)
	}
	lat := perDay(days, rows, func(r dayRow) float64 { return r.Latency })
	tok := perDay(days, rows, func(r dayRow) float64 { return float64(r.Tokens) })
	calls := 0
	for _, r := range rows {
		calls += r.N
	}
	p.Latency = newBarChart("Model latency (average per call)", fmt.Sprintf("%d model calls", calls), days, lat, func(v float64) string { return fmt.Sprintf("%.0f ms", v) })
	p.Tokens = newBarChart("Model tokens per day", fmt.Sprintf("%.0f tokens", sum(tok)), days, tok, count)
	return nil
}

// maxSearchSample bounds the search tool results the dashboard reads.
const maxSearchSample = 5000

// searchStats counts the queries of search_products tool calls and those
// that found nothing, from the persisted transcripts.
func (s *Server) searchStats(ctx context.Context, p *dashboardPage, since time.Time) error {
	var results []catalog.Message
	err := s.db.NewSelect().Model(&results).Column("conversation_id", "tool_call_id", "content").
		Where("tool_name = ?", "search_products").Where("created_at >= ?", since).
		Order("created_at DESC").Limit(maxSearchSample).Scan(ctx)
	if err != nil {
		return fmt.Errorf("admin: dashboard searches: %w", err)
	}
	if len(results) == 0 {
		return nil
	}
	convIDs := map[int64]bool{}
	for _, m := range results {
		convIDs[m.ConversationID] = true
	}
	ids := make([]int64, 0, len(convIDs))
	for id := range convIDs {
		ids = append(ids, id)
	}
	var calls []catalog.Message
	err = s.db.NewSelect().Model(&calls).Column("tool_calls").
		Where("conversation_id IN (?)", bun.In(ids)).Where("tool_name = ''").Where("role = ?", catalog.RoleAssistant).
		Where("created_at >= ?", since).Where("tool_calls IS NOT NULL").Scan(ctx)
	if err != nil {
		return fmt.Errorf("admin: dashboard search calls: %w", err)
	}
	queries := map[string]string{}
	for _, m := range calls {
		for _, tc := range m.ToolCalls {
			if tc.Name != "search_products" {
				continue
			}
			var a struct {
				Query    string `json:"query"`
				Category string `json:"category"`
			}
			_ = json.Unmarshal([]byte(tc.Arguments), &a)
			q := strings.ToLower(strings.Join(strings.Fields(a.Query), " "))
			if q == "" {
				q = strings.ToLower(a.Category)
			}
			queries[tc.ID] = q
		}
	}
	top, zero := map[string]int{}, map[string]int{}
	for _, m := range results {
		q := queries[m.ToolCallID]
		if q == "" {
			continue
		}
		top[q]++
		var out struct {
			Total *int `json:"total"`
		}
		if json.Unmarshal([]byte(m.Content), &out) == nil && out.Total != nil && *out.Total == 0 {
			zero[q]++
		}
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
