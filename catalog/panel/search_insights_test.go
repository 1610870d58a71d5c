package panel_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/panel"
)

// TestSearchInsights: top queries, queries that found nothing, and
// queries with no add_to_cart after them in their conversation; contact
// details a shopper typed never appear; older searches are left out.
func TestSearchInsights(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		call := func(id, name, args string) catalog.ToolCall {
			return catalog.ToolCall{ID: id, Name: name, Arguments: args}
		}
		result := func(id, content string) *catalog.Message {
			return &catalog.Message{Role: catalog.RoleTool, ToolCallID: id, ToolName: catalog.SearchToolName, Content: content}
		}
		// Ann searched shoes twice, then added one: no "no add after".
		ann := catalogtest.OpenConversation(t, db, catalogtest.Customer(t, db, "web", "ann"))
		// Bob searched shoes and a lamp, added nothing; then a phone number.
		bob := catalogtest.OpenConversation(t, db, catalogtest.Customer(t, db, "web", "bob"))
		old := time.Now().UTC().AddDate(0, 0, -40)
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(catalog.AppendMessages(ctx, db, ann.ID,
			&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{call("a1", catalog.SearchToolName, `{"query":"Red Shoes"}`)}},
			result("a1", `{"total":3}`),
			&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{call("a2", catalog.SearchToolName, `{"query":"red  shoes"}`)}},
			result("a2", `{"total":3}`),
			&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{call("a3", panel.CartAddToolName, `{"sku":"X"}`)}},
		))
		must(catalog.AppendMessages(ctx, db, bob.ID,
			&catalog.Message{Role: catalog.RoleAssistant, CreatedAt: old, ToolCalls: []catalog.ToolCall{call("b0", catalog.SearchToolName, `{"query":"sandals"}`)}},
			&catalog.Message{Role: catalog.RoleTool, CreatedAt: old, ToolCallID: "b0", ToolName: catalog.SearchToolName, Content: `{"total":0}`},
			&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{call("b1", catalog.SearchToolName, `{"query":"red shoes"}`)}},
			result("b1", `{"total":3}`),
			&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{call("b2", catalog.SearchToolName, `{"query":"lava lamp"}`)}},
			result("b2", `{"total":0}`),
			&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{
				call("b3", catalog.SearchToolName, `{"query":"Eva Stone +1 555 0100"}`), call("b4", catalog.SearchToolName, `{"query":"eva.stone@example.com"}`)}},
			result("b3", `{"total":0}`), result("b4", `{"total":0}`),
		))
		rep, err := panel.SearchInsights(ctx, db, time.Now().UTC().AddDate(0, 0, -7), 10)
		must(err)
		want := panel.SearchInsightsReport{
			Top:        []panel.QueryCount{{Query: "red shoes", N: 3}, {Query: "lava lamp", N: 1}},
			NoResults:  []panel.QueryCount{{Query: "lava lamp", N: 1}},
			NoAddAfter: []panel.QueryCount{{Query: "lava lamp", N: 1}, {Query: "red shoes", N: 1}},
		}
		if !slices.Equal(rep.Top, want.Top) || !slices.Equal(rep.NoResults, want.NoResults) || !slices.Equal(rep.NoAddAfter, want.NoAddAfter) {
			t.Errorf("insights = %+v\nwant %+v", rep, want)
		}
		for _, l := range [][]panel.QueryCount{rep.Top, rep.NoResults, rep.NoAddAfter} {
			for _, q := range l {
				if strings.Contains(q.Query, "555") || strings.Contains(q.Query, "@") || strings.Contains(q.Query, "sandals") {
					t.Errorf("listed %q", q.Query)
				}
			}
		}
		rep, err = panel.SearchInsights(ctx, db, time.Now().UTC().AddDate(0, 0, -7), 1)
		if err != nil || len(rep.Top) != 1 || len(rep.NoAddAfter) != 1 {
			t.Errorf("limit 1 = %+v, %v", rep, err)
		}
	})
}

// TestSearchPins: pins are stored normalized, once per pair; bad input
// (no query, unknown SKU, a variant, too many) stores nothing; pinned
// products come back in pin order, active ones only; a pin is removed.
func TestSearchPins(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		var ps []catalog.Product
		if err := db.NewSelect().Model(&ps).Where("parent_id IS NULL").Where("active").Order("sku").Limit(7).Scan(ctx); err != nil || len(ps) < 7 {
			t.Fatalf("products: %v", err)
		}
		p1, err := catalog.AddSearchPin(ctx, db, "  Gift  IDEAS ", ps[1].SKU)
		if err != nil || p1.Query != "gift ideas" {
			t.Fatalf("pin = %+v, %v", p1, err)
		}
		again, err := catalog.AddSearchPin(ctx, db, "gift ideas", ps[1].SKU)
		if err != nil || again.ID != p1.ID {
			t.Errorf("pinning twice = %+v, %v; want pin %d", again, err, p1.ID)
		}
		if _, err := catalog.AddSearchPin(ctx, db, "gift ideas", ps[0].SKU); err != nil {
			t.Fatal(err)
		}
		var variant catalog.Product
		if err := db.NewSelect().Model(&variant).Where("parent_id IS NOT NULL").Limit(1).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		for name, c := range map[string]struct {
			q, sku string
			want   error
		}{
			"no query":    {"  ", ps[2].SKU, catalog.ErrInvalid},
			"unknown sku": {"gift ideas", "NOPE-1", catalog.ErrNotFound},
			"variant":     {"gift ideas", variant.SKU, catalog.ErrInvalid},
			"long query":  {strings.Repeat("a", catalog.MaxPinQueryLen+1), ps[2].SKU, catalog.ErrInvalid},
		} {
			if _, err := catalog.AddSearchPin(ctx, db, c.q, c.sku); !errors.Is(err, c.want) {
				t.Errorf("%s: %v; want %v", name, err, c.want)
			}
		}
		for _, p := range ps[2:5] {
			if _, err := catalog.AddSearchPin(ctx, db, "gift ideas", p.SKU); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := catalog.AddSearchPin(ctx, db, "gift ideas", ps[5].SKU); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("a sixth pin: %v; want ErrInvalid", err)
		}
		pins, err := catalog.ListSearchPins(ctx, db)
		if err != nil || len(pins) != catalog.MaxPinsPerQuery || pins[0].Product == nil {
			t.Fatalf("pins = %+v, %v", pins, err)
		}
		if err := catalog.SetProductActive(ctx, db, ps[0].SKU, false); err != nil {
			t.Fatal(err)
		}
		got, err := catalog.PinnedProducts(ctx, db, "GIFT ideas")
		if err != nil || len(got) != 4 || got[0].SKU != ps[1].SKU || got[1].SKU != ps[2].SKU || got[0].Category == nil && got[0].CategoryID != nil {
			t.Errorf("pinned = %+v, %v; want 4 active, %s first", got, err, ps[1].SKU)
		}
		if err := catalog.DeleteSearchPin(ctx, db, p1.ID); err != nil {
			t.Fatal(err)
		}
		if err := catalog.DeleteSearchPin(ctx, db, p1.ID); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("deleting twice: %v", err)
		}
	})
}
