package admin_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"shopbot/admin"
)

func newServer(ready error) http.Handler {
	return admin.Handler(admin.New(admin.Config{
		Registry: prometheus.NewRegistry(),
		Ready:    func(context.Context) error { return ready },
	}), nil)
}

func get(h http.Handler, path string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec
}

func TestProbes(t *testing.T) {
	for _, tc := range []struct {
		name      string
		ready     error
		path      string
		code      int
		bodyMatch string
	}{
		{"healthz while not ready", errors.New("database unreachable"), "/healthz", 200, "ok"},
		{"readyz not ready", errors.New("database unreachable"), "/readyz", 503, "not ready: database unreachable"},
		{"readyz ready", nil, "/readyz", 200, "ready"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := get(newServer(tc.ready), tc.path)
			if rec.Code != tc.code || !strings.Contains(rec.Body.String(), tc.bodyMatch) {
				t.Errorf("%s = %d %q, want %d containing %q", tc.path, rec.Code, rec.Body.String(), tc.code, tc.bodyMatch)
			}
		})
	}
}

func TestMetricsByRoutePattern(t *testing.T) {
	s := newServer(nil)
	get(s, "/healthz")
	get(s, "/healthz")
	get(s, "/no/such/page/12345")
	post := httptest.NewRecorder()
	s.ServeHTTP(post, httptest.NewRequest(http.MethodPost, "/healthz", nil))
	if post.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /healthz = %d, want 405", post.Code)
	}
	body := get(s, "/metrics").Body.String()
	for _, want := range []string{
		`shopbot_http_requests_total{code="200",route="GET /healthz"} 2`,
		`shopbot_http_requests_total{code="404",route="unmatched"} 1`,
		`shopbot_http_request_duration_seconds_bucket{route="GET /healthz"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s:\n%s", want, body)
		}
	}
	if strings.Contains(body, "12345") {
		t.Error("raw paths leak into metric labels")
	}
}
