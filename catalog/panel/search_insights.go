package panel

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// CartAddToolName is the tool whose call counts as adding to a cart in
// the search insights.
const CartAddToolName = "add_to_cart"

// QueryCount is one normalized search query and how often it was searched.
type QueryCount struct {
	Query string
	N     int
}

// SearchInsightsReport is what the search insights page lists for a
// period: the most searched queries, those that found nothing, and those
// after which nothing was added to a cart in the same conversation, each
// most frequent first (ties by query), at most limit long.
type SearchInsightsReport struct {
	Top, NoResults, NoAddAfter []QueryCount
}

// SearchInsights reads the report since, from the stored transcripts (a
// bounded read like SearchCounts: at most the latest 5,000 search results
// and 5,000 assistant tool-call messages). A search counts as "no add
// after" when no add_to_cart call follows it in its conversation within
// the period. Queries holding contact details are left out (SearchCounts).
func SearchInsights(ctx context.Context, db bun.IDB, since time.Time, limit int) (SearchInsightsReport, error) {
	all, zero, err := SearchCounts(ctx, db, since)
	if err != nil {
		return SearchInsightsReport{}, err
	}
	noAdd, err := searchesWithoutAdd(ctx, db, since)
	if err != nil {
		return SearchInsightsReport{}, err
	}
	return SearchInsightsReport{Top: topQueries(all, limit), NoResults: topQueries(zero, limit), NoAddAfter: topQueries(noAdd, limit)}, nil
}

// searchesWithoutAdd counts, by normalized query, the search calls since
// with no add_to_cart call after them in their conversation.
func searchesWithoutAdd(ctx context.Context, db bun.IDB, since time.Time) (map[string]int, error) {
	var calls []catalog.Message
	err := db.NewSelect().Model(&calls).Column("id", "conversation_id", "created_at", "tool_calls").
		Where("role = ?", catalog.RoleAssistant).Where("tool_name = ''").Where("tool_calls IS NOT NULL").
		Where("created_at >= ?", since).
		Order("created_at DESC", "id DESC").Limit(maxSearchSample).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: search and cart calls: %w", err)
	}
	// Newest first: a conversation's add seen before (later than) a search.
	added := map[int64]bool{}
	out := map[string]int{}
	for _, m := range calls {
		for i := len(m.ToolCalls) - 1; i >= 0; i-- {
			tc := m.ToolCalls[i]
			switch tc.Name {
			case CartAddToolName:
				added[m.ConversationID] = true
			case catalog.SearchToolName:
				if q := searchQuery(tc.Arguments); q != "" && !added[m.ConversationID] {
					out[q]++
				}
			}
		}
	}
	return out, nil
}

// topQueries is counts as a list, most frequent first, ties by query, at
// most limit long (all when limit <= 0).
func topQueries(counts map[string]int, limit int) []QueryCount {
	out := make([]QueryCount, 0, len(counts))
	for q, n := range counts {
		if n > 0 {
			out = append(out, QueryCount{Query: q, N: n})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].N != out[j].N {
			return out[i].N > out[j].N
		}
		return out[i].Query < out[j].Query
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}
