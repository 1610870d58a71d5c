package admin_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/importer"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/vectorizer"
)

// BenchmarkPanel100k measures the panel's heaviest pages over HTTP with
// 100,000 products and 10,000 conversations (5 messages each, one with
// 200): the product list (first page and filtered), the inbox (first
// page and a search) and a 200-message transcript.
// Targets: product list and inbox p99 ≤ 100 ms; the transcript ≤ 100 ms.
func BenchmarkPanel100k(b *testing.B) {
	for _, kind := range []string{"sqlite", "postgres"} {
		b.Run(kind, func(b *testing.B) {
			var db *bun.DB
			if kind == "sqlite" {
				db = catalogtest.SQLite(b)
			} else {
				db, _ = catalogtest.Postgres(b)
			}
			start := time.Now()
			long := fillShop(b, db)
			b.Logf("%s: 100,000 products and 10,000 conversations written in %s", kind, time.Since(start).Round(time.Millisecond))
			idx := embedded.New(embedded.Options{Embedder: vectorizer.NewLocal(0)})
			if err := idx.Rebuild(context.Background(), catalog.NewSearchSource(db)); err != nil {
				b.Fatal(err)
			}
			p := newPanelWith(b, db, idx)
			p.signIn()
			for _, page := range []struct{ name, path string }{
				{"products", "/admin/products"},
				{"products_search", "/admin/products?q=" + url.QueryEscape("waterproof jacket")},
				{"products_filtered", "/admin/products?stock=in&sort=price_asc&category=" + url.QueryEscape("Apparel")},
				{"products_page_2", ""}, // the next link of the first page
				{"inbox", "/admin/conversations"},
				{"inbox_search", "/admin/conversations?q=kayak"},
				{"transcript_200", fmt.Sprintf("/admin/conversations/%d", long)},
			} {
				if page.name == "products_page_2" {
					_, body := p.get("/admin/products")
					m := nextRE.FindStringSubmatch(body)
					if m == nil {
						b.Fatal("no next page")
					}
					page.path = html2url(m[1])
				}
				b.Run(page.name, func(b *testing.B) {
					var lat []time.Duration
					for b.Loop() {
						start := time.Now()
						code, _ := p.get(page.path)
						lat = append(lat, time.Since(start))
						if code != http.StatusOK {
							b.Fatalf("%s = %d", page.path, code)
						}
					}
					sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
					b.ReportMetric(ms(lat[len(lat)/2]), "p50_ms")
					b.ReportMetric(ms(lat[(len(lat)*99)/100]), "p99_ms")
				})
			}
		})
	}
}

var nextRE = regexpMust(`href="(/admin/products\?[^"]*)">Next page`)

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// fillShop imports 100,000 synthetic products and writes 10,000
// conversations with customers and messages; it returns the id of the
// conversation with 200 messages.
func fillShop(b *testing.B, db *bun.DB) int64 {
	b.Helper()
	ctx := context.Background()
	var file bytes.Buffer
	if err := demo.WriteSynthetic(&file, 100_000, 1); err != nil {
		b.Fatal(err)
	}
	if _, err := importer.Import(ctx, db, &file, "bench.jsonl", importer.Options{}); err != nil {
		b.Fatal(err)
	}
	const convs = 10_000
	now := time.Now().UTC().Add(-time.Hour)
	custs := make([]catalog.Customer, convs)
	for i := range custs {
		custs[i] = catalog.Customer{Channel: "telegram", PlatformUserID: fmt.Sprint(1000 + i), DisplayName: fmt.Sprintf("Shopper %d", i), Username: fmt.Sprintf("shopper%d", i)}
	}
	for i := 0; i < convs; i += 2000 {
		part := custs[i:min(i+2000, convs)]
		if _, err := db.NewInsert().Model(&part).Returning("id").Exec(ctx); err != nil {
			b.Fatal(err)
		}
	}
	cs := make([]catalog.Conversation, convs)
	for i := range cs {
		id := custs[i].ID
		at := now.Add(time.Duration(i) * time.Second)
		cs[i] = catalog.Conversation{Channel: "telegram", ChatID: fmt.Sprint(1000 + i), CustomerID: &id, LastMessageAt: at, CreatedAt: at, State: "{}", NeedsHuman: i%50 == 0}
	}
	for i := 0; i < convs; i += 2000 {
		part := cs[i:min(i+2000, convs)]
		if _, err := db.NewInsert().Model(&part).Returning("id").Exec(ctx); err != nil {
			b.Fatal(err)
		}
	}
	var msgs []catalog.Message
	flush := func() {
		if len(msgs) > 0 {
			if _, err := db.NewInsert().Model(&msgs).Exec(ctx); err != nil {
				b.Fatal(err)
			}
			msgs = msgs[:0]
		}
	}
	for i, c := range cs {
		n := 5
		if i == 0 {
			n = 200
		}
		for j := 0; j < n; j++ {
			m := catalog.Message{ConversationID: c.ID, Role: catalog.RoleUser, Content: fmt.Sprintf("Do you have rain jackets in size %d?", j), CreatedAt: c.CreatedAt}
			switch j % 4 {
			case 1:
				m = catalog.Message{ConversationID: c.ID, Role: catalog.RoleAssistant, Model: "gpt-4o-mini", PromptTokens: 1500, CompletionTokens: 25, LatencyMS: 700, CreatedAt: c.CreatedAt,
					ToolCalls: []catalog.ToolCall{{ID: fmt.Sprintf("c%d-%d", i, j), Name: "search_products", Arguments: `{"query":"rain jacket","limit":5}`}}}
			case 2:
				m = catalog.Message{ConversationID: c.ID, Role: catalog.RoleTool, ToolCallID: fmt.Sprintf("c%d-%d", i, j-1), ToolName: "search_products", CreatedAt: c.CreatedAt,
					Content: `{"total":12,"products":[{"sku":"APP-JKT-001","title":"Stormline Waterproof Jacket","price":"$129.99","stock":12}]}`}
			case 3:
				m = catalog.Message{ConversationID: c.ID, Role: catalog.RoleAssistant, Model: "gpt-4o-mini", PromptTokens: 1700, CompletionTokens: 80, LatencyMS: 900, CreatedAt: c.CreatedAt,
					Content: "Here are waterproof jackets in your size: the Stormline at $129.99 is the lightest."}
			}
			msgs = append(msgs, m)
			if len(msgs) == 2000 {
				flush()
			}
		}
	}
	flush()
	if db.Dialect().Name().String() == "pg" {
		// What autovacuum does after a bulk load in production.
		if _, err := db.ExecContext(ctx, "ANALYZE"); err != nil {
			b.Fatal(err)
		}
	}
	return cs[0].ID
}

func regexpMust(s string) *regexp.Regexp { return regexp.MustCompile(s) }

func html2url(s string) string { return strings.ReplaceAll(s, "&amp;", "&") }
