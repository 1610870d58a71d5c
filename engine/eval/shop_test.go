package eval_test

import (
	"context"
	"fmt"
	"os"
	"shopbot/catalog"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/catalog/demo"
	"shopbot/catalog/sandbox"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/vectorizer"
	"shopbot/engine"
	"shopbot/engine/eval"
	"shopbot/engine/llm"
)

// testShop is the demo shop in src, cloned into a sandbox template, with
// the embedded search over the clone (as bot/eval.go builds it).
type testShop struct {
	src   *bun.DB
	dir   string
	tmpl  *sandbox.Template
	index *embedded.Index
	pages *embedded.Passages
}

func newTestShop(t testing.TB, src *bun.DB) *testShop {
	t.Helper()
	ctx := context.Background()
	if _, err := demo.Seed(ctx, src); err != nil {
		t.Fatal(err)
	}
	return shopOf(t, src)
}

// shopOf clones the shop already in src into a sandbox template and
// indexes it.
func shopOf(t testing.TB, src *bun.DB) *testShop {
	t.Helper()
	ctx := context.Background()
	s := &testShop{src: src, dir: t.TempDir()}
	var err error
	if s.tmpl, err = sandbox.Clone(ctx, src, s.dir); err != nil {
		t.Fatal(err)
	}
	cp, err := s.tmpl.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	s.index = embedded.New(embedded.Options{Embedder: vectorizer.NewLocal(0)})
	s.pages = embedded.NewPassages(embedded.PassageOptions{Embedder: vectorizer.NewLocal(0)})
	if err := s.index.Rebuild(ctx, catalog.NewSearchSource(cp.DB)); err != nil {
		t.Fatal(err)
	}
	if err := s.pages.Rebuild(ctx, catalog.NewSearchSource(cp.DB)); err != nil {
		t.Fatal(err)
	}
	return s
}

// runner runs scenarios on the shop with model (nil: the offline planner).
func (s *testShop) runner(model llm.Model, parallel int) *eval.Runner {
	return &eval.Runner{Template: s.tmpl, Parallel: parallel, NewEngine: func(db *bun.DB) (eval.Handler, error) {
		return engine.New(engine.Config{DB: db, Search: s.index, Pages: s.pages, Model: model,
			RateLimit: 1 << 30, Registry: prometheus.NewRegistry()})
	}}
}

func (s *testShop) run(t testing.TB, r *eval.Runner, scs []eval.Scenario) *eval.Report {
	t.Helper()
	rep, err := r.Run(context.Background(), scs)
	if err != nil {
		t.Fatal(err)
	}
	// Every scenario's copy is gone once it ends: only the template stays.
	if left, _ := os.ReadDir(s.dir); len(left) != 1 || left[0].Name() != "template.db" {
		names := []string{}
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("files left in the sandbox dir: %v", names)
	}
	return rep
}

func parseFile(t testing.TB, path string) []eval.Scenario {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	scs, err := eval.Parse(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return scs
}

// repeated is scs n times over, each copy's names numbered.
func repeated(scs []eval.Scenario, n int) []eval.Scenario {
	var out []eval.Scenario
	for i := range n {
		for _, sc := range scs {
			sc.Name = fmt.Sprintf("%s #%d", sc.Name, i+1)
			out = append(out, sc)
		}
	}
	return out
}
