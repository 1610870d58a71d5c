package admin_test

import (
	"net/http"
	"testing"

	"shopbot/catalog/catalogtest"
)

// The panel's route table: signed out, every page sends the browser to
// sign in and every action is refused; none of them is unrouted (404) or
// routed under the wrong method (405).
func TestRoutesSignedOut(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	for _, path := range []string{"/admin/", "/admin/products", "/admin/products/new", "/admin/products/1",
		"/admin/products/1/reviews", "/admin/import", "/admin/import/1", "/admin/orders", "/admin/orders/A-1",
		"/admin/pages", "/admin/pages/new", "/admin/pages/returns", "/admin/promos", "/admin/promos/new", "/admin/promos/1",
		"/admin/conversations", "/admin/conversations/1", "/admin/conversations/1/replay", "/admin/replay",
		"/admin/playground", "/admin/playground/trace", "/admin/playground/scenario", "/admin/settings", "/admin/settings/delivery"} {
		if code, loc, _ := p.do("GET", path, nil); code != http.StatusSeeOther || loc == "" {
			t.Errorf("GET %s signed out = %d → %q, want 303 to sign in", path, code, loc)
		}
	}
	for _, path := range []string{"/admin/logout", "/admin/products/new", "/admin/products/1", "/admin/products/1/archive",
		"/admin/products/1/restore", "/admin/products/1/reviews/2/hide", "/admin/products/1/reviews/2/show", "/admin/import",
		"/admin/import/preview", "/admin/import/confirm", "/admin/orders/A-1/status", "/admin/orders/A-1/cancel", "/admin/orders/A-1/refund",
		"/admin/pages/new", "/admin/pages/returns", "/admin/pages/returns/delete", "/admin/promos/new", "/admin/promos/1", "/admin/promos/1/active",
		"/admin/conversations/1/pause", "/admin/conversations/1/resume", "/admin/conversations/1/reply", "/admin/replay",
		"/admin/settings", "/admin/staff", "/admin/staff/1/delete", "/admin/settings/delivery", "/admin/settings/delivery/country",
		"/admin/settings/delivery/1", "/admin/settings/delivery/1/delete"} {
		code, _, _ := p.do("POST", path, nil)
		if code == http.StatusNotFound || code == http.StatusMethodNotAllowed || code < 300 {
			t.Errorf("POST %s signed out = %d, want it routed and refused", path, code)
		}
	}
	for _, path := range []string{"/admin/login", "/admin/static/style.css"} {
		if code, _, _ := p.do("GET", path, nil); code != http.StatusOK {
			t.Errorf("GET %s = %d, want 200", path, code)
		}
	}
	if code, loc, _ := p.do("GET", "/admin", nil); code != http.StatusMovedPermanently || loc != "/admin/" {
		t.Errorf("GET /admin = %d → %q, want 301 to /admin/", code, loc)
	}
}
