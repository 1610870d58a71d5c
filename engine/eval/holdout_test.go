package eval_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/importer"
	"shopbot/engine/eval"
)

// The held-out scenarios of issue 30 (testdata/scenarios_holdout.yaml on
// the demo shop, testdata/holdout_corner.yaml on a second catalog) were
// written before the planner changed and are never tuned against: the
// test reports every failure and holds the pass rate at or above the
// figure docs/planner.md records, so it can only go up.
const holdoutFloor = 121.0 / 133

func TestHoldoutScenarios(t *testing.T) {
	demo := parseFile(t, "testdata/scenarios_holdout.yaml")
	corner := parseFile(t, "testdata/holdout_corner.yaml")
	// The second round's third (issue 30 again): the demo and the
	// hardware store, written before that round's planner changes.
	shoppers := parseFile(t, "testdata/holdout_shoppers.yaml")
	hw := parseFile(t, "testdata/holdout_hardware.yaml")
	all := slices.Concat(demo, corner, shoppers, hw)
	ru := 0
	for _, sc := range all {
		if strings.HasPrefix(sc.Locale, "ru") {
			ru++
		}
	}
	if len(all) < 130 || ru < 60 {
		t.Fatalf("held out: %d scenarios (%d Russian); at least 130 (60) are asked for", len(all), ru)
	}
	passed := 0
	for _, rep := range []*eval.Report{runOnDemo(t, slices.Concat(demo, shoppers)), runOnCorner(t, corner), runOnHardware(t, hw)} {
		passed += rep.Passed
		for _, res := range rep.Results {
			if !res.Passed {
				t.Logf("held out fails: %s (line %d): turn %d: %s", res.Name, res.Line, res.Turn, res.Failure)
				if os.Getenv("HOLDOUT_VERBOSE") != "" {
					for _, st := range res.Transcript {
						t.Logf("    %s\n      -> %v %q", st.Input, st.Outcome.ToolNames(), st.Outcome.Reply)
					}
				}
			}
			if strings.HasPrefix(res.Failure, "could not run") {
				t.Errorf("%s: %s", res.Name, res.Failure)
			}
		}
	}
	total := len(all)
	rate := float64(passed) / float64(total)
	t.Logf("held out: passed %d/%d (%.1f %%)", passed, total, 100*rate)
	if rate < holdoutFloor {
		t.Fatalf("held out: %.1f %% passes, below the recorded %.1f %%", 100*rate, 100*holdoutFloor)
	}
}

// runOnCorner runs scs on the second catalog (testdata/corner): a small
// grocery and electronics shop loaded through the importer, as a
// merchant loads their own.
func runOnCorner(t *testing.T, scs []eval.Scenario) *eval.Report {
	t.Helper()
	src := catalogtest.SQLite(t)
	seedCorner(t, src)
	shop := shopOf(t, src)
	return shop.run(t, shop.runner(nil, 2), scs)
}

func seedCorner(t testing.TB, db *bun.DB) {
	t.Helper()
	seedDir(t, db, "testdata/corner")
}

// seedDir loads dir/products.jsonl and dir/pages through the importer.
func seedDir(t testing.TB, db *bun.DB, dir string) {
	t.Helper()
	ctx := context.Background()
	f, err := os.Open(dir + "/products.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sum, err := importer.Import(ctx, db, f, "products.jsonl", importer.Options{})
	if err != nil || sum.Failed > 0 {
		t.Fatal(fmt.Sprint(dir, " products: ", sum, err, sum.Errors))
	}
	if sum, err = importer.ImportPages(ctx, db, os.DirFS(dir+"/pages"), importer.Options{}); err != nil || sum.Failed > 0 {
		t.Fatal(fmt.Sprint(dir, " pages: ", sum, err, sum.Errors))
	}
}

// runOnHardware runs scs on the third catalog (testdata/hardware): a
// hardware store loaded through the importer, with variants in sizes and
// colours and pages in English and Russian.
func runOnHardware(t *testing.T, scs []eval.Scenario) *eval.Report {
	t.Helper()
	src := catalogtest.SQLite(t)
	seedDir(t, src, "testdata/hardware")
	shop := shopOf(t, src)
	return shop.run(t, shop.runner(nil, 2), scs)
}
