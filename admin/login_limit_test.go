package admin_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"shopbot/admin"
	"shopbot/catalog/catalogtest"
)

// TestSignInLimitAcrossReplicas: 60 parallel sign-in attempts for one user
// from 25 addresses (behind a trusted proxy), spread over three panels on
// one database (two on SQLite), compare exactly 5 passwords; the others
// are refused with the wait, and a refused attempt with the right
// password does not sign in. A restarted panel keeps the count.
func TestSignInLimitAcrossReplicas(t *testing.T) {
	catalogtest.EachReplicas(t, 3, func(t *testing.T, dbs []*bun.DB) {
		if dbs[0].Dialect().Name() == dialect.SQLite {
			dbs = dbs[:2] // two processes on one SQLite file
		}
		if _, err := admin.EnsureAdmin(context.Background(), dbs[0], testPassword); err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 11, 25, 10, 11, 0, 0, time.UTC) // 4 minutes before the window ends
		var checks atomic.Int32
		servers := make([]http.Handler, len(dbs))
		for i, db := range dbs {
			servers[i] = replicaPanel(db, now, &checks)
		}
		codes := make([]int, 60)
		bodies := make([]string, 60)
		var wg sync.WaitGroup
		for i := range 60 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				pw := fmt.Sprintf("guess-%d", i)
				if i%10 == 9 {
					pw = testPassword
				}
				codes[i], bodies[i] = attemptSignIn(servers[i%len(servers)], fmt.Sprintf("203.0.113.%d", i%25), "admin", pw)
			}()
		}
		wg.Wait()
		if n := checks.Load(); n != 5 {
			t.Errorf("%d passwords compared for one user, want exactly 5", n)
		}
		refused := 0
		for i, code := range codes {
			switch code {
			case http.StatusUnauthorized, http.StatusSeeOther:
			case http.StatusTooManyRequests:
				refused++
				if !strings.Contains(bodies[i], "Too many sign-in attempts for this user; try again in 4 minutes.") {
					t.Errorf("refusal %d does not say why and how long:\n%s", i, bodies[i])
				}
			default:
				t.Fatalf("attempt %d: status %d\n%s", i, code, bodies[i])
			}
		}
		if refused != 55 {
			t.Errorf("%d attempts refused, want 55", refused)
		}
		restarted := replicaPanel(dbs[0], now, &checks)
		if code, _ := attemptSignIn(restarted, "198.51.100.1", "ADMIN", testPassword); code != http.StatusTooManyRequests {
			t.Errorf("after a restart, another address, the name's case changed: %d, want 429", code)
		}
		if n := checks.Load(); n != 5 {
			t.Errorf("%d passwords compared after the restart, want still 5", n)
		}
		next := replicaPanel(dbs[0], now.Add(4*time.Minute), &checks)
		if code, _ := attemptSignIn(next, "198.51.100.1", "admin", testPassword); code != http.StatusSeeOther {
			t.Errorf("in the next window: %d, want signed in", code)
		}
	})
}

// TestSignInLimitPerAddress: one address gets 20 attempts per window
// whatever the user names.
func TestSignInLimitPerAddress(t *testing.T) {
	db := catalogtest.SQLite(t)
	var checks atomic.Int32
	srv := replicaPanel(db, time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC), &checks)
	for i := range 25 {
		code, body := attemptSignIn(srv, "203.0.113.7", fmt.Sprintf("user%d", i), "guess")
		if want := i < 20; (code == http.StatusUnauthorized) != want {
			t.Fatalf("attempt %d: %d, want allowed %v\n%s", i, code, want, body)
		}
		if i >= 20 && !strings.Contains(body, "Too many sign-in attempts from this address; try again in 15 minutes.") {
			t.Errorf("refusal %d:\n%s", i, body)
		}
	}
	if n := checks.Load(); n != 20 {
		t.Errorf("%d passwords compared, want 20", n)
	}
	if code, _ := attemptSignIn(srv, "203.0.113.8", "user24", "guess"); code != http.StatusUnauthorized {
		t.Errorf("another address: %d, want its own count", code)
	}
}

// replicaPanel is a panel process behind a proxy at 10.0.0.1, counting its
// password comparisons in checks.
func replicaPanel(db *bun.DB, now time.Time, checks *atomic.Int32) http.Handler {
	proxies, _ := admin.ParseTrustedProxies("10.0.0.1")
	srv := admin.New(admin.Config{Registry: prometheus.NewRegistry(), DB: db, TrustedProxies: proxies,
		Now: func() time.Time { return now }})
	admin.CountPasswordChecks(srv, checks)
	return admin.Handler(srv, nil)
}

// attemptSignIn posts the sign-in form from client address ip through the
// proxy and returns the status and body.
func attemptSignIn(srv http.Handler, ip, user, password string) (int, string) {
	form := url.Values{"csrf": {"tok"}, "username": {user}, "password": {password}}
	r := httptest.NewRequest("POST", "/admin/login", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.AddCookie(&http.Cookie{Name: "shopbot_login_csrf", Value: "tok"})
	r.RemoteAddr = "10.0.0.1:40000"
	r.Header.Set("X-Forwarded-For", ip)
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, r)
	return w.Code, w.Body.String()
}
