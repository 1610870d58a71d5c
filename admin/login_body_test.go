package admin_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/admin"
	"shopbot/catalog/catalogtest"
)

// TestSignInBodyBounded: an unauthenticated sign-in body of 64 MB or
// 200 MB, streamed, is refused with 413 after the server has read at most
// 1 MB of it, the process's allocations grow by at most 5 MB, and it is
// not counted as a sign-in attempt; a multipart sign-in body is refused
// (415) unread and uncounted. Before, the form was parsed under the 256 MB
// upload limit: a 200 MB body took the process from 87 to 953 MB.
func TestSignInBodyBounded(t *testing.T) {
	db := catalogtest.SQLite(t)
	srv, read, status := countingPanel(t, db)
	for _, tc := range []struct {
		name, contentType string
		size              int64
		want              int
	}{
		{"64 MB form", "application/x-www-form-urlencoded", 64 << 20, http.StatusRequestEntityTooLarge},
		{"200 MB form", "application/x-www-form-urlencoded", 200 << 20, http.StatusRequestEntityTooLarge},
		{"200 MB multipart", "multipart/form-data; boundary=x", 200 << 20, http.StatusUnsupportedMediaType},
		{"200 MB JSON", "application/json", 200 << 20, http.StatusUnsupportedMediaType},
	} {
		t.Run(tc.name, func(t *testing.T) {
			read.Store(0)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			req, _ := http.NewRequest("POST", srv.URL+"/admin/login", &endlessForm{left: tc.size})
			req.ContentLength = tc.size
			req.Header.Set("Content-Type", tc.contentType)
			req.AddCookie(&http.Cookie{Name: "shopbot_login_csrf", Value: "tok"})
			if resp, err := srv.Client().Do(req); err == nil { // the server may close while the client writes
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			runtime.ReadMemStats(&after)
			if got := <-status; got != tc.want {
				t.Errorf("status %d, want %d", got, tc.want)
			}
			if n := read.Load(); n > 1<<20 {
				t.Errorf("the server read %d bytes of the body, want at most 1 MB", n)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 5<<20 {
				t.Errorf("allocations grew by %d MB, want at most 5", grew>>20)
			}
		})
	}
	for _, table := range []string{"rate_limits", "signin_delays"} {
		if n, err := db.NewSelect().TableExpr(table).Count(context.Background()); err != nil || n != 0 {
			t.Errorf("%s has %d rows (%v): a refused body was counted as a sign-in attempt", table, n, err)
		}
	}
}

// countingPanel serves the panel on a listener that counts the bytes it
// reads, and reports each sign-in's status on a channel.
func countingPanel(t *testing.T, db *bun.DB) (*httptest.Server, *atomic.Int64, <-chan int) {
	t.Helper()
	if _, err := admin.EnsureAdmin(context.Background(), db, testPassword); err != nil {
		t.Fatal(err)
	}
	panel := admin.Handler(admin.New(admin.Config{Registry: prometheus.NewRegistry(), DB: db}), nil)
	status := make(chan int, 1)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusWriter{ResponseWriter: w}
		panel.ServeHTTP(rec, r)
		status <- rec.code
	}))
	read := &atomic.Int64{}
	srv.Listener = countingListener{srv.Listener, read}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, read, status
}

// endlessForm streams "username=aaaa…" of a given size without holding it.
type endlessForm struct {
	left int64
	head bool
}

func (f *endlessForm) Read(p []byte) (int, error) {
	if f.left <= 0 {
		return 0, io.EOF
	}
	n := min(int64(len(p)), f.left)
	for i := range p[:n] {
		p[i] = 'a'
	}
	if !f.head {
		f.head = true
		n = int64(copy(p, "username="))
	}
	f.left -= n
	return int(n), nil
}

type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	w.code = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

type countingListener struct {
	net.Listener
	n *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{c, l.n}, nil
}

type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// TestSignInFormStillWorks: the bounded reader keeps an ordinary sign-in
// (with a charset parameter) working.
func TestSignInFormStillWorks(t *testing.T) {
	db := catalogtest.SQLite(t)
	srv, _, status := countingPanel(t, db)
	client := srv.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	body := "csrf=tok&username=admin&password=" + testPassword
	req, _ := http.NewRequest("POST", srv.URL+"/admin/login", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
	req.AddCookie(&http.Cookie{Name: "shopbot_login_csrf", Value: "tok"})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := client.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := <-status; got != http.StatusSeeOther {
		t.Errorf("sign-in: %d, want 303", got)
	}
}
