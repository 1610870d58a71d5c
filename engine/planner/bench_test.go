package planner

import (
	"context"
	"fmt"
	"shopbot/catalog"
	"shopbot/engine/toolkit"
	"testing"
	"time"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/vectorizer"
	"shopbot/engine/tools"
	"shopbot/engine/tools/toolstest"
)

// BenchmarkPlannerTurn is one planner answer to a search ("running shoes
// under 150") on the demo shop with the embedded index: parsing, the
// search tool and the reply, without the engine around it.
func BenchmarkPlannerTurn(b *testing.B) {
	db := catalogtest.SQLite(b)
	ctx := context.Background()
	if _, err := demo.Load(ctx, db); err != nil {
		b.Fatal(err)
	}
	idx := embedded.New(embedded.Options{Embedder: vectorizer.NewLocal(0)})
	if err := idx.Rebuild(ctx, catalog.NewSearchSource(db)); err != nil {
		b.Fatal(err)
	}
	tb, err := toolkit.NewToolbox(tools.Tools(&tools.Deps{DB: db, Search: idx, Currency: "USD",
		Now: func() time.Time { return toolstest.Now }})...)
	if err != nil {
		b.Fatal(err)
	}
	s := toolstest.Session(b, db, "web", "bench")
	p := New(tb)
	i := 0
	for b.Loop() {
		i++
		s.DedupKey = fmt.Sprint("turn-", i)
		if _, err := p.Answer(ctx, s, "running shoes under 150"); err != nil {
			b.Fatal(err)
		}
	}
}
