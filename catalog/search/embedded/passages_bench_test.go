package embedded_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/vectorizer"
)

// policyWords seed the synthetic pages with the vocabulary shoppers ask
// about, so queries find many candidates as they would in a real shop.
var policyWords = strings.Fields(`return refund exchange shipping delivery courier parcel country canada germany
	payment card paypal invoice warranty repair guarantee contact phone email address store opening hours
	gift voucher discount loyalty points size guide care washing battery charger order cancel track
	customs duties express standard free days weeks business label box receipt damaged missing`)

// syntheticPages writes n pages of 4–8 sections of 1–3 paragraphs each
// (some 6,000 passages for 1,000), from policy words and filler.
func syntheticPages(tb testing.TB, db bun.IDB, n int) {
	tb.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	filler := make([]string, 3000)
	for i := range filler {
		filler[i] = fmt.Sprintf("w%x", r.Uint32()%0xfffff)
	}
	word := func() string {
		if r.IntN(3) == 0 {
			return policyWords[r.IntN(len(policyWords))]
		}
		return filler[r.IntN(len(filler))]
	}
	sentence := func(k int) string {
		ws := make([]string, k)
		for i := range ws {
			ws[i] = word()
		}
		return strings.Join(ws, " ") + "."
	}
	ctx := context.Background()
	for i := range n {
		var sb strings.Builder
		for range 4 + r.IntN(5) {
			fmt.Fprintf(&sb, "## %s %s\n\n", word(), word())
			for range 1 + r.IntN(3) {
				for range 2 + r.IntN(4) {
					sb.WriteString(sentence(6+r.IntN(10)) + " ")
				}
				sb.WriteString("\n\n")
			}
		}
		in := catalog.PageInput{Slug: fmt.Sprintf("page-%d", i), Title: word() + " " + word(), Body: sb.String()}
		if _, err := catalog.UpsertPage(ctx, db, in); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkPassages1k measures a passage search over 1,000 synthetic
// pages with the Local embedder (hybrid). Target: p99 ≤ 10 ms. Run it by
// name: go test -run '^$' -bench Passages1k -benchtime 2000x ./catalog/search/embedded/
func BenchmarkPassages1k(b *testing.B) {
	db := catalogtest.SQLite(b)
	syntheticPages(b, db, 1000)
	x := embedded.NewPassages(embedded.PassageOptions{Embedder: vectorizer.NewLocal(0), Logger: testLogger(b)})
	if err := x.Rebuild(context.Background(), catalog.NewSearchSource(db)); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(x.Len()), "passages")
	queries := []string{"what is your return policy", "do you ship to canada", "how much does express shipping cost",
		"can I pay by invoice", "warranty repair battery", "phone number", "как вернуть товар", "сколько стоит доставка",
		"gift voucher expire", "track my parcel", "customs duties germany", "opening hours store address"}
	ctx := context.Background()
	var took []time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		ps, err := x.SearchPassages(ctx, search.PassageQuery{Kind: catalog.PassagePage, Text: queries[i%len(queries)]})
		took = append(took, time.Since(start))
		if err != nil || len(ps) == 0 {
			b.Fatalf("%q: %d passages, %v", queries[i%len(queries)], len(ps), err)
		}
	}
	slices.Sort(took)
	pct := func(p float64) float64 { return float64(took[int(p*float64(len(took)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.5), "p50_ms")
	b.ReportMetric(pct(0.99), "p99_ms")
}
