package admin_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
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

// TestSignInDelayAcrossReplicas: 60 parallel wrong guesses for one user
// from 25 addresses, spread over three panels on one database (two on
// SQLite), compare exactly one password: the others are refused with
// Retry-After 1 and a sentence saying why. A restarted panel keeps the
// delay; a second later the owner's attempt is evaluated.
func TestSignInDelayAcrossReplicas(t *testing.T) {
	catalogtest.EachReplicas(t, 3, func(t *testing.T, dbs []*bun.DB) {
		if dbs[0].Dialect().Name() == dialect.SQLite {
			dbs = dbs[:2] // two processes on one SQLite file
		}
		if _, err := admin.EnsureAdmin(context.Background(), dbs[0], testPassword); err != nil {
			t.Fatal(err)
		}
		clk := &clock{now: time.Date(2026, 11, 25, 10, 11, 0, 0, time.UTC)}
		var checks atomic.Int32
		servers := make([]http.Handler, len(dbs))
		for i, db := range dbs {
			servers[i] = replicaPanel(db, clk, &checks)
		}
		res := make([]*httptest.ResponseRecorder, 60)
		var wg sync.WaitGroup
		for i := range 60 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res[i] = signInFrom(servers[i%len(servers)], fmt.Sprintf("203.0.113.%d", i%25), "admin", fmt.Sprintf("guess-%d", i), nil)
			}()
		}
		wg.Wait()
		if n := checks.Load(); n != 1 {
			t.Errorf("%d passwords compared for one user, want exactly 1", n)
		}
		refused := 0
		for i, w := range res {
			switch w.Code {
			case http.StatusUnauthorized:
			case http.StatusTooManyRequests:
				refused++
				if !strings.Contains(w.Body.String(), "Sign-in for this user is slowed down after recent attempts; try again in 1 second.") || w.Header().Get("Retry-After") != "1" {
					t.Errorf("refusal %d does not say why and how long (Retry-After %q):\n%s", i, w.Header().Get("Retry-After"), w.Body)
				}
			default:
				t.Fatalf("attempt %d: status %d\n%s", i, w.Code, w.Body)
			}
		}
		if refused != 59 {
			t.Errorf("%d attempts refused, want 59", refused)
		}
		restarted := replicaPanel(dbs[0], clk, &checks)
		if w := signInFrom(restarted, "198.51.100.1", "ADMIN", testPassword, nil); w.Code != http.StatusTooManyRequests {
			t.Errorf("after a restart, another address, the name's case changed: %d, want 429", w.Code)
		}
		clk.add(time.Second)
		if w := signInFrom(restarted, "198.51.100.1", "admin", testPassword, nil); w.Code != http.StatusSeeOther {
			t.Errorf("a second later: %d, want signed in", w.Code)
		}
	})
}

// TestSignInDelayGrows: after each wrong password the next attempt for
// the user waits 1 s, 2 s, 4 s … capped at 60 s, whatever the address;
// an attempt during the wait is answered 429 with Retry-After and does
// not lengthen it. A success clears the delay.
func TestSignInDelayGrows(t *testing.T) {
	db := catalogtest.SQLite(t)
	if _, err := admin.EnsureAdmin(context.Background(), db, testPassword); err != nil {
		t.Fatal(err)
	}
	clk := &clock{now: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)}
	var checks atomic.Int32
	srv := replicaPanel(db, clk, &checks)
	for i, wait := range []int{1, 2, 4, 8, 16, 32, 60, 60} {
		if w := signInFrom(srv, fmt.Sprintf("198.51.%d.1", i), "admin", "guess", nil); w.Code != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d, want evaluated (401)", i+1, w.Code)
		}
		for range 3 { // hammering during the wait does not lengthen it
			w := signInFrom(srv, fmt.Sprintf("192.0.2.%d", i), "admin", testPassword, nil)
			if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != strconv.Itoa(wait) {
				t.Fatalf("during wait %d: %d, Retry-After %q; want 429 and %d", i+1, w.Code, w.Header().Get("Retry-After"), wait)
			}
		}
		clk.add(time.Duration(wait) * time.Second)
	}
	if n := checks.Load(); n != 8 {
		t.Errorf("%d passwords compared, want 8 (one per wait)", n)
	}
	if w := signInFrom(srv, "192.0.2.100", "admin", testPassword, nil); w.Code != http.StatusSeeOther {
		t.Fatalf("after the wait: %d, want signed in", w.Code)
	}
	clk.add(time.Millisecond)
	if w := signInFrom(srv, "192.0.2.100", "admin", "typo", nil); w.Code != http.StatusUnauthorized {
		t.Errorf("after a success the delay starts again: %d, want evaluated", w.Code)
	}
}

// TestSignInLimitPerAddress: one address gets 20 attempts per 15-minute
// window whatever the user names, and one /24 (or IPv6 /64) 100.
func TestSignInLimitPerAddress(t *testing.T) {
	db := catalogtest.SQLite(t)
	clk := &clock{now: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)}
	var checks atomic.Int32
	srv := replicaPanel(db, clk, &checks)
	for i := range 25 {
		w := signInFrom(srv, "203.0.113.7", fmt.Sprintf("user%d", i), "guess", nil)
		if want := i < 20; (w.Code == http.StatusUnauthorized) != want {
			t.Fatalf("attempt %d: %d, want allowed %v\n%s", i, w.Code, want, w.Body)
		}
		if i >= 20 && (!strings.Contains(w.Body.String(), "Too many sign-in attempts from this address; try again in 15 minutes.") || w.Header().Get("Retry-After") != "900") {
			t.Errorf("refusal %d (Retry-After %q):\n%s", i, w.Header().Get("Retry-After"), w.Body)
		}
	}
	if n := checks.Load(); n != 20 {
		t.Errorf("%d passwords compared, want 20", n)
	}
	for _, net := range []struct{ name, addr, other string }{
		{"IPv4 /24", "203.0.113.%d", "203.0.114.1"},
		{"IPv6 /64", "2001:db8:1:2::%x", "2001:db8:1:3::1"},
	} {
		t.Run(net.name, func(t *testing.T) {
			for i := range 100 { // 20 of them counted above on IPv4
				signInFrom(srv, fmt.Sprintf(net.addr, 100+i/10), fmt.Sprintf("v%d", i), "guess", nil)
			}
			w := signInFrom(srv, fmt.Sprintf(net.addr, 250), "someone", "guess", nil)
			if w.Code != http.StatusTooManyRequests || !strings.Contains(w.Body.String(), "Too many sign-in attempts from this network") {
				t.Errorf("a fresh address in the range: %d, want refused for the network\n%s", w.Code, w.Body)
			}
			if w := signInFrom(srv, net.other, "someone-else-"+net.name, "guess", nil); w.Code != http.StatusUnauthorized {
				t.Errorf("the next range: %d, want its own count", w.Code)
			}
		})
	}
}

// TestOwnerSignsInDuringAttack: 1,000 wrong guesses for the owner's name
// from 1,000 addresses in 100 networks, one a second, compare at most ~22
// passwords (the delay grows to 60 s and stays there). Then the owner's
// browser that signed in before the attack (its device cookie) signs in
// at once; a browser without one is told to wait at most the 60 s cap,
// and is signed in when it tries after that wait. A device cookie is
// worth nothing for another user name or when tampered with, and a
// device has its own delay after a wrong password.
func TestOwnerSignsInDuringAttack(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		if _, err := admin.EnsureAdmin(context.Background(), db, testPassword); err != nil {
			t.Fatal(err)
		}
		clk := &clock{now: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)}
		var checks atomic.Int32
		srv := replicaPanel(db, clk, &checks)
		before := signInFrom(srv, "192.0.2.10", "admin", testPassword, nil)
		device := deviceCookieOf(t, before)
		clk.add(time.Second)

		for i := range 1000 {
			signInFrom(srv, fmt.Sprintf("198.18.%d.%d", i/10, i%10+1), "admin", fmt.Sprintf("guess-%d", i), nil)
			clk.add(time.Second)
		}
		if n := checks.Load(); n < 1+15 || n > 1+25 {
			t.Errorf("%d passwords compared during 1,000 guesses in 1,000 s, want about 22", n-1)
		}
		signInFrom(srv, "198.18.100.1", "admin", "one-more", nil) // the user is now waiting, 1 to 60 s
		checks.Store(0)

		tampered := *device
		tampered.Value = strings.Replace(device.Value, ".", ".x", 1)
		for name, c := range map[string]*http.Cookie{"tampered": &tampered} {
			if w := signInFrom(srv, "192.0.2.10", "admin", testPassword, c); w.Code != http.StatusTooManyRequests {
				t.Errorf("%s device cookie: %d, want treated as a stranger (429)", name, w.Code)
			}
		}
		if w := signInFrom(srv, "192.0.2.10", "admin", testPassword, device); w.Code != http.StatusSeeOther {
			t.Fatalf("owner with the device cookie: %d, want signed in at once\n%s", w.Code, w.Body)
		}

		w := signInFrom(srv, "192.0.2.11", "admin", testPassword, nil)
		wait, _ := strconv.Atoi(w.Header().Get("Retry-After"))
		if w.Code != http.StatusTooManyRequests || wait < 1 || wait > 60 {
			t.Fatalf("owner without a device cookie: %d, Retry-After %q; want 429 and at most 60", w.Code, w.Header().Get("Retry-After"))
		}
		clk.add(time.Duration(wait) * time.Second)
		if w := signInFrom(srv, "192.0.2.11", "admin", testPassword, nil); w.Code != http.StatusSeeOther {
			t.Errorf("owner without a device cookie after Retry-After: %d, want signed in", w.Code)
		}
		if n := checks.Load(); n != 2 {
			t.Errorf("%d passwords compared for the owner's two sign-ins", n)
		}

		if err := admin.CreateUser(context.Background(), db, "clerk", "clerk-password-1"); err != nil {
			t.Fatal(err)
		}
		clk.add(time.Second)
		signInFrom(srv, "198.18.200.1", "clerk", "guess", nil) // a stranger slows clerk down
		if w := signInFrom(srv, "192.0.2.10", "clerk", "clerk-password-1", device); w.Code != http.StatusTooManyRequests {
			t.Errorf("admin's device cookie for clerk: %d, want no help (429)", w.Code)
		}
		if w := signInFrom(srv, "192.0.2.10", "admin", "typo", device); w.Code != http.StatusUnauthorized {
			t.Errorf("a wrong password from the device: %d, want 401", w.Code)
		}
		w = signInFrom(srv, "192.0.2.10", "admin", testPassword, device)
		if w.Code != http.StatusTooManyRequests || !strings.Contains(w.Body.String(), "Sign-in for this browser is slowed down") {
			t.Errorf("the device right after its wrong password: %d, want its own delay\n%s", w.Code, w.Body)
		}
	})
}

// TestDeviceCookie: a successful sign-in sets a long-lived, HttpOnly,
// SameSite=Strict device cookie for the sign-in path, Secure when the
// request came over https.
func TestDeviceCookie(t *testing.T) {
	db := catalogtest.SQLite(t)
	if _, err := admin.EnsureAdmin(context.Background(), db, testPassword); err != nil {
		t.Fatal(err)
	}
	clk := &clock{now: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)}
	var checks atomic.Int32
	srv := replicaPanel(db, clk, &checks)
	for _, https := range []bool{false, true} {
		clk.add(time.Minute)
		r := signInRequest("192.0.2.1", "admin", testPassword, nil)
		if https {
			r.Header.Set("X-Forwarded-Proto", "https")
		}
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		c := deviceCookieOf(t, w)
		if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/admin/login" || c.MaxAge < 180*24*3600 || c.Secure != https {
			t.Errorf("https %v: device cookie %+v", https, c)
		}
	}
}

// replicaPanel is a panel process behind a proxy at 10.0.0.1 on clock clk,
// counting its password comparisons in checks.
func replicaPanel(db *bun.DB, clk *clock, checks *atomic.Int32) http.Handler {
	proxies, _ := admin.ParseTrustedProxies("10.0.0.1")
	srv := admin.New(admin.Config{Registry: prometheus.NewRegistry(), DB: db, TrustedProxies: proxies, Now: clk.Now})
	admin.CountPasswordChecks(srv, checks)
	return admin.Handler(srv, nil)
}

// signInRequest is the sign-in form from client address ip through the
// proxy, with the device cookie when not nil.
func signInRequest(ip, user, password string, device *http.Cookie) *http.Request {
	form := url.Values{"csrf": {"tok"}, "username": {user}, "password": {password}}
	r := httptest.NewRequest("POST", "/admin/login", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.AddCookie(&http.Cookie{Name: "shopbot_login_csrf", Value: "tok"})
	if device != nil {
		r.AddCookie(&http.Cookie{Name: device.Name, Value: device.Value})
	}
	r.RemoteAddr = "10.0.0.1:40000"
	r.Header.Set("X-Forwarded-For", ip)
	return r
}

// signInFrom posts the sign-in form and returns the answer.
func signInFrom(srv http.Handler, ip, user, password string, device *http.Cookie) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, signInRequest(ip, user, password, device))
	return w
}

// deviceCookieOf is the device cookie a successful sign-in set.
func deviceCookieOf(t *testing.T, w *httptest.ResponseRecorder) *http.Cookie {
	t.Helper()
	if w.Code != http.StatusSeeOther {
		t.Fatalf("sign-in: %d, want 303\n%s", w.Code, w.Body)
	}
	for _, c := range w.Result().Cookies() {
		if c.Name == "shopbot_device" {
			return c
		}
	}
	t.Fatal("no device cookie after signing in")
	return nil
}
