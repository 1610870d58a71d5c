package main

import (
	"bytes"
	"io"
	"net/http"
	"os/exec"
	"shopbot/bot/internal/servetest"
	"shopbot/catalog/catalogtest"
	"strings"
	"testing"
)

// TestServeAdminPassword: a first start generates the admin password and
// prints it once; it signs in; a later start does not print it again.
func TestServeAdminPassword(t *testing.T) {
	dbURL := catalogtest.SQLiteSeededURL(t)
	s := startServer(t, map[string]string{"DATABASE_URL": dbURL})
	s.waitReady(t)
	m := servetest.GeneratedRE.FindStringSubmatch(s.stdout.String())
	if m == nil {
		t.Fatalf("no generated password in the startup output:\n%s", s.stdout)
	}
	servetest.SignIn(t, s.base, "admin", m[1])
	s.stop(t)

	s = startServer(t, map[string]string{"DATABASE_URL": dbURL})
	s.waitReady(t)
	out := s.stdout.String()
	if strings.Contains(out, m[1]) || !strings.Contains(out, "password printed at first start") {
		t.Errorf("second start:\n%s", out)
	}
	s.stop(t)

	s = startServer(t, map[string]string{"DATABASE_URL": dbURL, "ADMIN_PASSWORD": "a password from the env"})
	s.waitReady(t)
	servetest.SignIn(t, s.base, "admin", "a password from the env")
}

// TestMetricsPassPromtool scrapes the real /metrics after a chat turn and
// checks it with promtool (Debian package prometheus). Missing promtool is
// a failure, not a skip.
func TestMetricsPassPromtool(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatal("promtool not found: install it (apt-get install prometheus) — the metrics must pass `promtool check metrics`")
	}
	s := startServer(t, map[string]string{"DATABASE_URL": catalogtest.SQLiteSeededURL(t), "METRICS_TOKEN": "scrape-token"})
	s.waitReady(t)
	resp, err := http.Post(s.base+"/api/chat", "application/json", strings.NewReader(`{"session":"metrics-test-session-1","message":"running shoes under 100"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if code, _ := s.get(t, "/metrics"); code != http.StatusUnauthorized {
		t.Errorf("/metrics without the token = %d, want 401", code)
	}
	req, _ := http.NewRequest("GET", s.base+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer scrape-token")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	scrape, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"shopbot_turns_total{channel=\"web\",outcome=\"planner\"} 1", "shopbot_tool_calls_total", "shopbot_http_requests_total", "shopbot_feed_fetches_total{result=\"failed\"} 0"} {
		if !bytes.Contains(scrape, []byte(want)) {
			t.Errorf("scrape lacks %s", want)
		}
	}
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = bytes.NewReader(scrape)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
}

// TestServeProxiesAndSecureCookies: TRUSTED_PROXIES and PUBLIC_URL reach
// the panel: X-Forwarded-Proto counts from a trusted proxy only, and an
// https PUBLIC_URL makes the cookies Secure by itself.
func TestServeProxiesAndSecureCookies(t *testing.T) {
	secureCookie := func(base, proto string) bool {
		t.Helper()
		req, _ := http.NewRequest("GET", base+"/admin/login", nil)
		if proto != "" {
			req.Header.Set("X-Forwarded-Proto", proto)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		for _, c := range resp.Cookies() {
			if c.Name == "shopbot_login_csrf" {
				return c.Secure
			}
		}
		t.Fatal("no sign-in cookie")
		return false
	}
	dbURL := catalogtest.SQLiteSeededURL(t)
	s := startServer(t, map[string]string{"DATABASE_URL": dbURL})
	s.waitReady(t)
	if secureCookie(s.base, "https") {
		t.Error("X-Forwarded-Proto believed without TRUSTED_PROXIES")
	}
	s.stop(t)
	s = startServer(t, map[string]string{"DATABASE_URL": dbURL, "TRUSTED_PROXIES": "127.0.0.1"})
	s.waitReady(t)
	if !secureCookie(s.base, "https") || secureCookie(s.base, "") {
		t.Error("X-Forwarded-Proto from a trusted proxy: want Secure with https only")
	}
	s.stop(t)
	s = startServer(t, map[string]string{"DATABASE_URL": dbURL, "PUBLIC_URL": "https://shop.example.com"})
	s.waitReady(t)
	if !secureCookie(s.base, "") {
		t.Error("https PUBLIC_URL: want Secure cookies")
	}
}
