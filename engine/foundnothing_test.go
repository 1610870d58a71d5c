package engine

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/panel"
	"shopbot/catalog/search"
	"shopbot/catalog/search/searchtest"
)

// fuzzySearch answers as a forgiving engine does (the hybrid index): a
// word no product has is ignored, so the other words still find products.
type fuzzySearch struct {
	search.Searcher
	ignore string
}

func (f fuzzySearch) Search(ctx context.Context, q search.Query) (search.Results, error) {
	text := strings.Join(strings.Fields(strings.ReplaceAll(q.Text, f.ignore, "")), " ")
	if text == "" && q.Text != "" {
		return search.Results{}, nil // the word alone finds nothing
	}
	q.Text = text
	return f.Searcher.Search(ctx, q)
}

// TestToldNothingCountsAsFoundNothing: a search that returned products
// the planner then ruled out (none has the word "unobtainium") tells the
// shopper nothing matches, and the dashboard's searches that found nothing
// count it (they counted only searches the tool returned empty). A search
// whose products were shown is not counted.
func TestToldNothingCountsAsFoundNothing(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		newTestEnvOnDemo(t, db)
		srch := fuzzySearch{Searcher: searchtest.NewDatabase(db), ignore: "unobtainium"}
		eng, err := New(Config{DB: db, Search: srch, RateLimit: 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		for chat, text := range map[string]string{"a": "unobtainium running shoes", "b": "running shoes"} {
			ev := &events{}
			if err := eng.Handle(ctx, Turn{Channel: "web", ChatID: chat, UserID: chat, Text: text, DedupKey: chat}, ev); err != nil {
				t.Fatal(err)
			}
			if told := strings.Contains(ev.done(), "nothing"); told != (chat == "a") || len(ev.of(EventCards)) > 0 == told {
				t.Fatalf("%q answered %q with %d card events", text, ev.done(), len(ev.of(EventCards)))
			}
		}
		all, zero, err := panel.SearchCounts(ctx, db, time.Now().Add(-time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]int{"unobtainium running shoes": 1, "running shoes": 1}; !maps.Equal(all, want) {
			t.Errorf("searches %v, want %v", all, want)
		}
		if want := map[string]int{"unobtainium running shoes": 1}; !maps.Equal(zero, want) {
			t.Errorf("searches that found nothing %v, want %v", zero, want)
		}
	})
}
