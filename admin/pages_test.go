package admin_test

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/admin"
	"shopbot/catalog/catalogtest"
)

// TestEveryPageRenders signs in and opens every page, on SQLite and
// Postgres, so every template renders and every query runs in both
// dialects.
func TestEveryPageRenders(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		p := newPanelConfig(t, db, func(c *admin.Config) { c.Replayer = &fakeReplayer{turns: replayTurns} })
		f := seed(t, db)
		code, body := p.get("/admin/login")
		if code != http.StatusOK || !strings.Contains(body, "Sign in") {
			t.Fatalf("login page = %d", code)
		}
		p.signIn()
		// import_preview answers a multipart upload: TestImportPreviewThenConfirm renders it.
		rendered := map[string]bool{"login": true, "import_preview": true}
		for _, tc := range []struct{ page, path, want string }{
			{"dashboard", "/admin/", "Conversations per day"},
			{"demo_remove", "/admin/demo/remove", "There is no demo data"},
			{"products", "/admin/products", "Products"},
			{"products", "/admin/products?q=shoe&category=Shoes&stock=in&sort=price_desc", "Products"},
			{"product", fmt.Sprintf("/admin/products/%d", 1), "Archive"},
			{"product", "/admin/products/new", "New product"},
			{"product_reviews", fmt.Sprintf("/admin/products/%d/reviews", 1), "Reviews"},
			{"import", "/admin/import", "Import products"},
			{"feeds", "/admin/import/feeds", "Product feeds"},
			{"orders", "/admin/orders?status=new&channel=telegram&from=2020-01-01&to=2099-12-31", f.order.Number},
			{"order", "/admin/orders/" + f.order.Number, "Mark shipped"},
			{"order_slip", "/admin/orders/" + f.order.Number + "/slip", "packing slip"},
			{"returns", "/admin/returns?status=requested", "No returns match."},
			{"inbox", "/admin/conversations?show=human", "needs human"},
			{"transcript", fmt.Sprintf("/admin/conversations/%d", f.conv.ID), "search_products"},
			{"playground", "/admin/playground", "playground.js"},
			{"replay", "/admin/replay", "Turns of the last"},
			{"replay_conversation", fmt.Sprintf("/admin/conversations/%d/replay", f.conv.ID), "Replay with current settings"},
			{"settings", "/admin/settings", "Test Shop"},
			{"settings", "/admin/settings", `id="feed-links"`},
			{"delivery", "/admin/settings/delivery", "Add a method"},
			{"synonyms", "/admin/settings/synonyms", "Search synonyms"},
			{"search_insights", "/admin/search-insights?days=7", "Search insights"},
			{"pages", "/admin/pages", "Shipping and delivery"},
			{"page_edit", "/admin/pages/shipping", "Countries we ship to"},
			{"page_edit", "/admin/pages/new", "New page"},
			{"promos", "/admin/promos", "New promo code"},
			{"promo_edit", "/admin/promos/new", "Uses per customer"},
			{"staff", "/admin/staff", "Make an invitation link"},
			{"customers", "/admin/customers?q=eve", "Eve"},
			{"customer", "/admin/customers/" + itoa(f.customer.ID), f.order.Number},
			{"canned", "/admin/canned", "Canned replies"},
			{"audit", "/admin/audit?user=admin&action=order.", "Audit log"},
			{"team", "/admin/team?from=2020-01-01&to=2099-12-31", "Average first response"},
			{"invite", "/admin/invite/no-such-link", "expired or was already used"},
			{"error", "/admin/orders/SB-NOSUCH", "Not found"},
		} {
			code, body := p.get(tc.path)
			wantCode := http.StatusOK
			switch tc.page {
			case "error":
				wantCode = http.StatusNotFound
			case "invite":
				wantCode = http.StatusGone
			}
			if code != wantCode || !strings.Contains(body, tc.want) {
				t.Errorf("GET %s = %d, want %d with %q:\n%.2000s", tc.path, code, wantCode, tc.want, body)
			}
			if !strings.Contains(body, "</html>") {
				t.Errorf("GET %s: page cut short", tc.path)
			}
			rendered[tc.page] = true
		}
		code, page := p.get("/admin/import/999")
		if code != http.StatusNotFound || !strings.Contains(page, "Import not found") {
			t.Errorf("unknown import = %d", code)
		}
		names := p.admin.PageNames()
		sort.Strings(names)
		for _, n := range names {
			if !rendered[n] {
				t.Errorf("template %s is not rendered by this test", n)
			}
		}
	})
}

// TestPanelHeaders: every page carries the security headers and the
// static assets are served with the right types.
func TestPanelHeaders(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	resp, err := p.client.Get(p.srv.URL + "/admin/login")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "script-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %s", csp, want)
		}
	}
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("headers: %v", resp.Header)
	}
	for path, ctype := range map[string]string{"/admin/static/style.css": "text/css", "/admin/static/playground.js": "javascript", "/admin/static/confirm.js": "javascript"} {
		resp, err := http.Get(p.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), ctype) {
			t.Errorf("%s = %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
}
