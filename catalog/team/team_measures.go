package team

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/uptrace/bun"
)

// AgentMeasures are one staff member's figures over a period: first
// response time (support cases first answered by them in the period),
// resolution time (cases resolved in the period credited to them: the
// assignee at resolution, else who resolved) and CSAT (ratings given in
// the period of conversations they were credited with).
type AgentMeasures struct {
	UserID        int64 // 0: no one (a user since deleted)
	Username      string
	Replied       int
	FirstReplySum int64 // seconds
	Resolved      int
	ResolutionSum int64 // seconds
	Rated         int
	RatingSum     int64
}

// AvgFirstReply is the mean first response time.
func (m AgentMeasures) AvgFirstReply() time.Duration { return avgSecs(m.FirstReplySum, m.Replied) }

// AvgResolution is the mean resolution time.
func (m AgentMeasures) AvgResolution() time.Duration { return avgSecs(m.ResolutionSum, m.Resolved) }

// AvgRating is the mean CSAT rating (0 when no one rated).
func (m AgentMeasures) AvgRating() float64 {
	if m.Rated == 0 {
		return 0
	}
	return float64(m.RatingSum) / float64(m.Rated)
}

func avgSecs(sum int64, n int) time.Duration {
	if n == 0 {
		return 0
	}
	return time.Duration(sum/int64(n)) * time.Second
}

// TeamMeasures computes the measures per staff member for [from, to) in
// three grouped SQL aggregates over the stored times (no transcript is
// read); the last element is the team's total (UserID -1). Members with
// nothing in the period are left out.
func TeamMeasures(ctx context.Context, db bun.IDB, from, to time.Time) ([]AgentMeasures, error) {
	from, to = from.UTC(), to.UTC()
	type agg struct {
		UserID int64 `bun:"user_id"`
		N      int   `bun:"n"`
		Sum    int64 `bun:"total"`
	}
	var replied, resolved, rated []agg
	err := db.NewSelect().Model((*SupportCase)(nil)).
		ColumnExpr("COALESCE(first_reply_by, 0) AS user_id, COUNT(*) AS n, CAST(SUM(first_reply_secs) AS BIGINT) AS total").
		Where("first_reply_at >= ?", from).Where("first_reply_at < ?", to).GroupExpr("COALESCE(first_reply_by, 0)").Scan(ctx, &replied)
	if err != nil {
		return nil, fmt.Errorf("catalog: first response times: %w", err)
	}
	err = db.NewSelect().Model((*SupportCase)(nil)).
		ColumnExpr("COALESCE(agent_id, 0) AS user_id, COUNT(*) AS n, CAST(SUM(resolution_secs) AS BIGINT) AS total").
		Where("resolved_at >= ?", from).Where("resolved_at < ?", to).GroupExpr("COALESCE(agent_id, 0)").Scan(ctx, &resolved)
	if err != nil {
		return nil, fmt.Errorf("catalog: resolution times: %w", err)
	}
	err = db.NewSelect().Table("conversations").
		ColumnExpr("COALESCE(csat_agent_id, 0) AS user_id, COUNT(*) AS n, CAST(SUM(csat_rating) AS BIGINT) AS total").
		Where("csat_at >= ?", from).Where("csat_at < ?", to).GroupExpr("COALESCE(csat_agent_id, 0)").Scan(ctx, &rated)
	if err != nil {
		return nil, fmt.Errorf("catalog: ratings: %w", err)
	}
	byUser := map[int64]*AgentMeasures{}
	get := func(id int64) *AgentMeasures {
		if byUser[id] == nil {
			byUser[id] = &AgentMeasures{UserID: id}
		}
		return byUser[id]
	}
	for _, a := range replied {
		m := get(a.UserID)
		m.Replied, m.FirstReplySum = a.N, a.Sum
	}
	for _, a := range resolved {
		m := get(a.UserID)
		m.Resolved, m.ResolutionSum = a.N, a.Sum
	}
	for _, a := range rated {
		m := get(a.UserID)
		m.Rated, m.RatingSum = a.N, a.Sum
	}
	users, err := ListStaffUsers(ctx, db)
	if err != nil {
		return nil, err
	}
	names := map[int64]string{}
	for _, u := range users {
		names[u.ID] = u.Username
	}
	total := AgentMeasures{UserID: -1, Username: "team"}
	out := make([]AgentMeasures, 0, len(byUser)+1)
	for id, m := range byUser {
		m.Username = names[id]
		out = append(out, *m)
		total.Replied += m.Replied
		total.FirstReplySum += m.FirstReplySum
		total.Resolved += m.Resolved
		total.ResolutionSum += m.ResolutionSum
		total.Rated += m.Rated
		total.RatingSum += m.RatingSum
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Username < out[j].Username || (out[i].Username == out[j].Username && out[i].UserID < out[j].UserID)
	})
	return append(out, total), nil
}
