package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/weaviate/weaviatetest"
)

// Floors of the vocabulary-gap judgments (catalog/search/eval/testdata/
// vocabulary_gap.jsonl: queries that share no word with the titles they
// want, half of them Russian), and of the demo judgments, which the
// lexicon must not cost anything. Measured: docs/search.md.
const (
	gapFloor      = 0.85
	gapZeroMax    = 0.02 // share of answerable queries that return nothing
	demoGapFloor  = 0.95
	vocabularyGap = "vocabulary_gap.jsonl"
)

// TestVocabularyGap runs search-eval on the vocabulary-gap judgments and
// the demo judgments with the embedded index and with a real Weaviate:
// the same lexicon bridges the gap on both.
func TestVocabularyGap(t *testing.T) {
	t.Parallel() // waits on its own weaviate-server most of the time
	backends := map[string]func(t *testing.T) map[string]string{
		"embedded": func(t *testing.T) map[string]string { return map[string]string{} },
		"weaviate": func(t *testing.T) map[string]string {
			srv := weaviatetest.New(t)
			return map[string]string{"SEARCH_BACKEND": "weaviate", "WEAVIATE_URL": srv.URL, "WEAVIATE_GRPC_ADDR": srv.GRPCAddr}
		},
	}
	for name, setup := range backends {
		t.Run(name, func(t *testing.T) {
			vars := setup(t)
			vars["DATABASE_URL"] = catalogtest.SQLiteSeededURL(t)
			gap := searchEval(t, vars, vocabularyGap)
			if gap["ndcg@10"] < gapFloor || gap["zero_results"] > gapZeroMax*gap["queries"] || gap["queries"] < 150 {
				t.Errorf("%s on the vocabulary gap: ndcg@10 %.4f (floor %.2f), %v of %v return nothing",
					name, gap["ndcg@10"], gapFloor, gap["zero_results"], gap["queries"])
			}
			if demo := searchEval(t, vars, "demo_judgments.jsonl"); demo["ndcg@10"] < demoGapFloor {
				t.Errorf("%s on the demo judgments: ndcg@10 %.4f, floor %.2f", name, demo["ndcg@10"], demoGapFloor)
			}
		})
	}
}

// searchEval runs `shopbot search-eval` on a judgments file of
// catalog/search/eval/testdata and returns its figures.
func searchEval(t *testing.T, vars map[string]string, file string) map[string]float64 {
	t.Helper()
	var out bytes.Buffer
	path := filepath.Join("..", "catalog", "search", "eval", "testdata", file)
	if err := run(context.Background(), []string{"search-eval", "--judgments", path}, envFunc(vars), nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s:\n%s", file, out.String())
	figures := map[string]float64{}
	for line := range strings.Lines(out.String()) {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), " "); ok {
			figures[k], _ = strconv.ParseFloat(v, 64)
		}
	}
	return figures
}
