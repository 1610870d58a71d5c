package main

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync/atomic"
	"testing"

	"shopbot/admin"
)

// named answers 200 with its name, so a test sees which handler a route
// reached.
func named(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(name)) }
}

// fakeAdmin fills every admin handler with one that answers its field name.
func fakeAdmin() admin.Handlers {
	var h admin.Handlers
	v := reflect.ValueOf(&h).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		f.Set(reflect.ValueOf(named(v.Type().Field(i).Name)).Convert(f.Type()))
	}
	return h
}

func TestRoutes(t *testing.T) {
	var ready atomic.Bool
	ready.Store(true)
	mux := routes(httpHandlers{
		admin: fakeAdmin(), chat: named("chat"), chatNotices: named("chat notices"), telegram: named("telegram"), ready: &ready,
		slack: &slackEndpoints{events: named("slack events"), interactions: named("slack interactions"), commands: named("slack commands")},
	})
	for _, tc := range []struct{ method, path, want string }{
		{"GET", "/healthz", "Healthz"}, {"GET", "/readyz", "Readyz"}, {"GET", "/metrics", "Metrics"},
		{"POST", "/api/chat", "chat"}, {"GET", "/api/chat/notices", "chat notices"}, {"POST", "/telegram/webhook", "telegram"},
		{"POST", "/slack/events", "slack events"}, {"POST", "/slack/interactions", "slack interactions"}, {"POST", "/slack/commands", "slack commands"},
		{"GET", "/admin/static/style.css", "Static"}, {"GET", "/media/a.png", "Media"},
		{"GET", "/admin/login", "LoginPage"}, {"POST", "/admin/login", "Login"}, {"POST", "/admin/logout", "Logout"},
		{"GET", "/admin/", "Dashboard"},
		{"GET", "/admin/products", "Products"}, {"GET", "/admin/products/new", "NewProduct"}, {"POST", "/admin/products/new", "CreateProduct"},
		{"GET", "/admin/products/7", "EditProduct"}, {"POST", "/admin/products/7", "SaveProduct"},
		{"POST", "/admin/products/7/archive", "ArchiveProduct"}, {"POST", "/admin/products/7/restore", "RestoreProduct"},
		{"GET", "/admin/products/7/reviews", "ProductReviews"}, {"POST", "/admin/products/7/reviews/9/hide", "HideReview"}, {"POST", "/admin/products/7/reviews/9/show", "ShowReview"},
		{"GET", "/admin/import", "ImportPage"}, {"POST", "/admin/import", "StartImport"}, {"GET", "/admin/import/3", "ImportStatus"},
		{"GET", "/admin/orders", "Orders"}, {"GET", "/admin/orders/A-1", "Order"}, {"POST", "/admin/orders/A-1/status", "SetOrderStatus"},
		{"POST", "/admin/orders/A-1/cancel", "CancelOrder"}, {"POST", "/admin/orders/A-1/refund", "RefundOrder"},
		{"GET", "/admin/conversations", "Inbox"}, {"GET", "/admin/conversations/5", "Transcript"},
		{"POST", "/admin/conversations/5/pause", "Pause"}, {"POST", "/admin/conversations/5/resume", "Resume"}, {"POST", "/admin/conversations/5/reply", "Reply"},
		{"GET", "/admin/playground", "Playground"}, {"GET", "/admin/playground/trace", "PlaygroundTrace"}, {"GET", "/admin/playground/scenario", "PlaygroundScenario"},
		{"GET", "/admin/conversations/5/replay", "ReplayConversation"}, {"GET", "/admin/replay", "ReplayPage"}, {"POST", "/admin/replay", "StartReplay"},
		{"GET", "/admin/settings", "SettingsPage"}, {"POST", "/admin/settings", "SaveSettings"},
		{"POST", "/admin/staff", "AddStaff"}, {"POST", "/admin/staff/2/delete", "DeleteStaff"},
		{"GET", "/admin/pages", "Pages"}, {"GET", "/admin/pages/new", "NewPage"}, {"POST", "/admin/pages/new", "CreatePage"},
		{"GET", "/admin/pages/returns", "EditPage"}, {"POST", "/admin/pages/returns", "SavePage"}, {"POST", "/admin/pages/returns/delete", "DeletePage"},
	} {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		if rec.Code != 200 || rec.Body.String() != tc.want {
			t.Errorf("%s %s = %d %q, want 200 %q", tc.method, tc.path, rec.Code, rec.Body.String(), tc.want)
		}
	}
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/admin", nil))
	if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/admin/" {
		t.Errorf("GET /admin = %d to %q, want 301 to /admin/", rec.Code, rec.Header().Get("Location"))
	}
}

// Every admin handler has a route: a new field of admin.Handlers that
// routes forgets fails here.
func TestRoutesMountEveryAdminHandler(t *testing.T) {
	mux := routes(httpHandlers{admin: fakeAdmin(), chat: named("chat"), ready: &atomic.Bool{}})
	v := reflect.ValueOf(admin.Handlers{})
	mounted := map[string]bool{}
	for _, p := range adminPatterns(t, mux) {
		mounted[p] = true
	}
	for i := range v.NumField() {
		if name := v.Type().Field(i).Name; !mounted[name] {
			t.Errorf("admin.Handlers.%s has no route", name)
		}
	}
}

// adminPatterns answers every (method, path) a merchant could send and
// returns the handler names reached.
func adminPatterns(t *testing.T, mux *http.ServeMux) []string {
	t.Helper()
	var names []string
	for _, m := range []string{"GET", "POST"} {
		for _, p := range []string{"/healthz", "/readyz", "/metrics", "/admin/static/x.css", "/media/x.png", "/admin/login", "/admin/logout", "/admin/",
			"/admin/products", "/admin/products/new", "/admin/products/1", "/admin/products/1/archive", "/admin/products/1/restore",
			"/admin/products/1/reviews", "/admin/products/1/reviews/2/hide", "/admin/products/1/reviews/2/show",
			"/admin/import", "/admin/import/1", "/admin/orders", "/admin/orders/A", "/admin/orders/A/status", "/admin/orders/A/cancel", "/admin/orders/A/refund",
			"/admin/conversations", "/admin/conversations/1", "/admin/conversations/1/pause", "/admin/conversations/1/resume",
			"/admin/conversations/1/reply", "/admin/playground", "/admin/playground/trace", "/admin/playground/scenario", "/admin/conversations/1/replay", "/admin/replay", "/admin/settings", "/admin/staff", "/admin/staff/1/delete",
			"/admin/pages", "/admin/pages/new", "/admin/pages/returns", "/admin/pages/returns/delete",
			"/admin/promos", "/admin/promos/new", "/admin/promos/1", "/admin/promos/1/active",
			"/admin/settings/delivery", "/admin/settings/delivery/country", "/admin/settings/delivery/1", "/admin/settings/delivery/1/delete"} {
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest(m, p, nil))
			if rec.Code == 200 {
				names = append(names, rec.Body.String())
			}
		}
	}
	return names
}

// Before startup finishes, shopper traffic gets 503 and the probes answer.
func TestRoutesShopperTrafficWaitsForReady(t *testing.T) {
	var ready atomic.Bool
	mux := routes(httpHandlers{admin: fakeAdmin(), chat: named("chat"), telegram: named("telegram"), ready: &ready,
		slack: &slackEndpoints{events: named("e"), interactions: named("i"), commands: named("c")}})
	for _, p := range []string{"/api/chat", "/telegram/webhook", "/slack/events", "/slack/interactions", "/slack/commands"} {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest("POST", p, nil))
		if rec.Code != http.StatusServiceUnavailable {
			t.Errorf("POST %s before ready = %d, want 503", p, rec.Code)
		}
	}
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	if rec.Code != 200 {
		t.Errorf("GET /healthz before ready = %d, want 200", rec.Code)
	}
	ready.Store(true)
	noHooks := routes(httpHandlers{admin: fakeAdmin(), chat: named("chat"), ready: &ready})
	for _, p := range []string{"/telegram/webhook", "/slack/events"} {
		rec := httptest.NewRecorder()
		noHooks.ServeHTTP(rec, httptest.NewRequest("POST", p, nil))
		if rec.Code != http.StatusNotFound {
			t.Errorf("POST %s without the adapter = %d, want 404", p, rec.Code)
		}
	}
}
