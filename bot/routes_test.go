package main

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// named answers 200 with its name, so a test sees which handler a route
// reached.
func named(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(name)) }
}

// fakePanel answers the probes and metrics with their names and mounts one
// panel route, so a test sees which handler a route reached (the panel's
// own table is tested in admin).
type fakePanel struct{}

func (fakePanel) Healthz(w http.ResponseWriter, r *http.Request) { named("Healthz")(w, r) }
func (fakePanel) Readyz(w http.ResponseWriter, r *http.Request)  { named("Readyz")(w, r) }
func (fakePanel) Metrics() http.Handler                          { return named("Metrics") }
func (fakePanel) Routes(mux *http.ServeMux)                      { mux.Handle("GET /admin/{$}", named("panel")) }

func TestRoutes(t *testing.T) {
	var ready atomic.Bool
	ready.Store(true)
	mux := routes(httpHandlers{
		admin: fakePanel{}, chat: named("chat"), chatNotices: named("chat notices"), telegram: named("telegram"), ready: &ready,
		home:        named("home"),
		status:      named("status"),
		productPage: named("product page"),
		feeds:       &feedEndpoints{openAIJSON: named("feed json"), openAICSV: named("feed csv"), googleXML: named("feed xml")},
		slack:       &slackEndpoints{events: named("slack events"), interactions: named("slack interactions"), commands: named("slack commands")},
	})
	for _, tc := range []struct{ method, path, want string }{
		{"GET", "/healthz", "Healthz"}, {"GET", "/readyz", "Readyz"}, {"GET", "/metrics", "Metrics"}, {"GET", "/statusz", "status"},
		{"POST", "/api/chat", "chat"}, {"GET", "/api/chat/notices", "chat notices"}, {"POST", "/telegram/webhook", "telegram"},
		{"POST", "/slack/events", "slack events"}, {"POST", "/slack/interactions", "slack interactions"}, {"POST", "/slack/commands", "slack commands"},
		{"GET", "/admin/", "panel"}, {"GET", "/", "home"}, {"GET", "/products/TEE-1", "product page"},
		{"GET", "/feeds/products.json", "feed json"}, {"GET", "/feeds/products.csv", "feed csv"}, {"GET", "/feeds/google.xml", "feed xml"},
	} {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		if rec.Code != 200 || rec.Body.String() != tc.want {
			t.Errorf("%s %s = %d %q, want 200 %q", tc.method, tc.path, rec.Code, rec.Body.String(), tc.want)
		}
	}
}

// Before startup finishes, shopper traffic gets 503 and the probes answer.
func TestRoutesShopperTrafficWaitsForReady(t *testing.T) {
	var ready atomic.Bool
	mux := routes(httpHandlers{admin: fakePanel{}, chat: named("chat"), telegram: named("telegram"), ready: &ready,
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
	noHooks := routes(httpHandlers{admin: fakePanel{}, chat: named("chat"), ready: &ready})
	for _, p := range []string{"/telegram/webhook", "/slack/events"} {
		rec := httptest.NewRecorder()
		noHooks.ServeHTTP(rec, httptest.NewRequest("POST", p, nil))
		if rec.Code != http.StatusNotFound {
			t.Errorf("POST %s without the adapter = %d, want 404", p, rec.Code)
		}
	}
	// FEEDS=off mounts no feed.
	for _, p := range []string{"/feeds/products.json", "/feeds/google.xml"} {
		rec := httptest.NewRecorder()
		noHooks.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		if rec.Code != http.StatusNotFound {
			t.Errorf("GET %s with feeds off = %d, want 404", p, rec.Code)
		}
	}
}
