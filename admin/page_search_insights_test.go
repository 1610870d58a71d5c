package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestSearchInsightsPage: the three lists over a chosen period, no contact
// details a shopper typed, one click to pin a product for a query (bad
// input shown with the reason, nothing stored), the pin listed and
// removed, every change in the audit log; on both databases.
func TestSearchInsightsPage(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		p := newPanel(t, db)
		conv, err := catalog.OpenConversation(ctx, db, catalog.ConversationKey{Channel: "web", ChatID: "webchat-insights01"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := catalog.AppendMessages(ctx, db, conv.ID,
			&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{
				{ID: "s1", Name: catalog.SearchToolName, Arguments: `{"query":"Lava Lamp"}`},
				{ID: "s2", Name: catalog.SearchToolName, Arguments: `{"query":"call me at +1 555 0100"}`},
				{ID: "s3", Name: catalog.SearchToolName, Arguments: `{"query":"eva.stone@example.com"}`},
			}},
			&catalog.Message{Role: catalog.RoleTool, ToolCallID: "s1", ToolName: catalog.SearchToolName, Content: `{"total":0}`},
			&catalog.Message{Role: catalog.RoleTool, ToolCallID: "s2", ToolName: catalog.SearchToolName, Content: `{"total":0}`},
			&catalog.Message{Role: catalog.RoleTool, ToolCallID: "s3", ToolName: catalog.SearchToolName, Content: `{"total":0}`},
		); err != nil {
			t.Fatal(err)
		}
		p.signIn()
		for _, days := range []string{"7", "90", "bogus"} {
			code, body := p.get("/admin/search-insights?days=" + days)
			if code != http.StatusOK {
				t.Fatalf("days=%s: %d\n%s", days, code, body)
			}
			for _, id := range []string{`id="top-queries"`, `id="no-result-queries"`, `id="no-add-queries"`} {
				if !strings.Contains(body, id) {
					t.Errorf("days=%s: no %s", days, id)
				}
			}
			if strings.Count(body, `<td class="wrap">lava lamp</td>`) != 3 {
				t.Errorf("days=%s: lava lamp is not in all three lists", days)
			}
			if strings.Contains(body, "555") || strings.Contains(body, "example.com") {
				t.Errorf("days=%s: contact details shown:\n%s", days, body)
			}
		}
		var prod catalog.Product
		if err := db.NewSelect().Model(&prod).Where("parent_id IS NULL").Where("active").Order("sku").Limit(1).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		for name, form := range map[string]url.Values{
			"unknown sku": {"query": {"lava lamp"}, "sku": {"NOPE-1"}},
			"no query":    {"query": {" "}, "sku": {prod.SKU}},
		} {
			if code, _, body := p.post("/admin/search-insights/pins", form); code != http.StatusBadRequest || !strings.Contains(body, `id="insights-error"`) {
				t.Errorf("%s: %d\n%s", name, code, body)
			}
		}
		if pins, _ := catalog.ListSearchPins(ctx, db); len(pins) != 0 {
			t.Fatalf("bad input stored pins: %+v", pins)
		}
		code, loc, body := p.post("/admin/search-insights/pins", url.Values{"query": {"lava lamp"}, "sku": {prod.SKU}})
		if code != http.StatusSeeOther || loc != "/admin/search-insights" {
			t.Fatalf("pin = %d %s\n%s", code, loc, body)
		}
		pins, err := catalog.ListSearchPins(ctx, db)
		if err != nil || len(pins) != 1 || pins[0].ProductID != prod.ID || pins[0].Query != "lava lamp" {
			t.Fatalf("pins = %+v, %v", pins, err)
		}
		if _, body := p.get("/admin/search-insights"); !strings.Contains(body, `id="search-pins"`) || !strings.Contains(body, prod.SKU) {
			t.Errorf("the pin is not listed")
		}
		if code, _, _ := p.post("/admin/search-insights/pins", url.Values{"delete": {strconv.FormatInt(pins[0].ID, 10)}}); code != http.StatusSeeOther {
			t.Errorf("unpin = %d", code)
		}
		if code, _, _ := p.post("/admin/search-insights/pins", url.Values{"delete": {"999999"}}); code != http.StatusNotFound {
			t.Errorf("unpin a missing pin = %d", code)
		}
		if pins, _ := catalog.ListSearchPins(ctx, db); len(pins) != 0 {
			t.Errorf("after unpin: %+v", pins)
		}
		if _, body := p.get("/admin/audit"); strings.Count(body, "search.pin") < 2 {
			t.Errorf("the audit log lacks the pin changes")
		}
	})
}
