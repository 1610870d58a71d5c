package panel

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/personal"
)

// maxSearchSample bounds the search tool results SearchCounts reads.
const maxSearchSample = 5000

// SearchCounts counts the shoppers' searches since, from the stored
// transcripts (the search tool's calls and results; at most the latest
// 5,000): by normalized query (lower case, spaces collapsed; the category
// when the query is empty), how often it was searched (all) and how often
// it found nothing for the shopper (zero: the search returned nothing, or
// the answer ruled out all it returned, SearchFoundNothing).
func SearchCounts(ctx context.Context, db bun.IDB, since time.Time) (all, zero map[string]int, err error) {
	var results []catalog.Message
	err = db.NewSelect().Model(&results).Column("conversation_id", "tool_call_id", "content").
		Where("tool_name = ?", catalog.SearchToolName).Where("created_at >= ?", since).
		Order("created_at DESC").Limit(maxSearchSample).Scan(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("catalog: search results: %w", err)
	}
	all, zero = map[string]int{}, map[string]int{}
	if len(results) == 0 {
		return all, zero, nil
	}
	queries, err := searchQueries(ctx, db, results, since)
	if err != nil {
		return nil, nil, err
	}
	for _, m := range results {
		q := queries[m.ToolCallID]
		if q == "" {
			continue
		}
		all[q]++
		if foundNothing(m.Content) {
			zero[q]++
		}
	}
	return all, zero, nil
}

// searchQueries maps the tool call ids of the assistant's search calls in
// the results' conversations to their normalized queries.
func searchQueries(ctx context.Context, db bun.IDB, results []catalog.Message, since time.Time) (map[string]string, error) {
	convIDs := map[int64]bool{}
	for _, m := range results {
		convIDs[m.ConversationID] = true
	}
	ids := make([]int64, 0, len(convIDs))
	for id := range convIDs {
		ids = append(ids, id)
	}
	var calls []catalog.Message
	err := db.NewSelect().Model(&calls).Column("tool_calls").
		Where("conversation_id IN (?)", bun.List(ids)).Where("tool_name = ''").Where("role = ?", catalog.RoleAssistant).
		Where("created_at >= ?", since).Where("tool_calls IS NOT NULL").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: search calls: %w", err)
	}
	queries := map[string]string{}
	for _, m := range calls {
		for _, tc := range m.ToolCalls {
			if tc.Name == catalog.SearchToolName {
				queries[tc.ID] = searchQuery(tc.Arguments)
			}
		}
	}
	return queries, nil
}

// searchQuery is the normalized query of the search tool's arguments, or
// "" for one holding a phone number, an e-mail or a street address: what
// a shopper typed about themselves is not shown as a popular search.
func searchQuery(arguments string) string {
	var a struct {
		Query    string `json:"query"`
		Category string `json:"category"`
	}
	_ = json.Unmarshal([]byte(arguments), &a)
	q := strings.ToLower(strings.Join(strings.Fields(a.Query), " "))
	if q == "" {
		q = strings.ToLower(a.Category)
	}
	if personal.Contains(q) {
		return ""
	}
	return q
}

// foundNothing reports whether a stored search result found nothing for
// the shopper: a total of 0, or marked SearchFoundNothing.
func foundNothing(content string) bool {
	var out struct {
		Total   *int `json:"total"`
		Nothing bool `json:"found_nothing"`
	}
	if json.Unmarshal([]byte(content), &out) != nil {
		return false
	}
	return out.Nothing || (out.Total != nil && *out.Total == 0)
}
