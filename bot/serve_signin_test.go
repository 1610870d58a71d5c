package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"shopbot/adapters/web"
	"shopbot/admin"
	"shopbot/catalog/catalogtest"
	"shopbot/engine"
)

// noEngine fails the test if a turn reaches it.
type noEngine struct{ t *testing.T }

func (e noEngine) Handle(context.Context, engine.Turn, engine.Sink) error {
	e.t.Error("a cut body reached the engine")
	return nil
}

// TestSlowBodiesBeforeSignInAreCut: before anyone is signed in, a slow
// body meets the same deadline everywhere (here ReadTimeout = 200 ms, in
// production a minute). A trickled multipart sign-in body — which used to
// get the 15-minute upload window before any session was checked — is
// cut like a URL-encoded one and a web chat body. The test waits on the
// connection closing, with a 20 s safety net that fails instead of
// hanging; the trickle itself would take 8 s.
func TestSlowBodiesBeforeSignInAreCut(t *testing.T) {
	db := catalogtest.SQLite(t)
	adm := admin.New(admin.Config{Registry: prometheus.NewRegistry(), DB: db})
	var ready atomic.Bool
	ready.Store(true)
	mux := routes(httpHandlers{admin: adm, chat: web.New(noEngine{t}, nil), ready: &ready})
	to := httpTimeouts{ReadHeader: 200 * time.Millisecond, Read: 200 * time.Millisecond, Write: time.Second, Idle: time.Second}
	addr := startTestServer(t, mux, to)

	slow := strings.Repeat("a", 400)
	for _, tc := range []struct{ name, path, contentType string }{
		{"multipart sign-in", "/admin/login", "multipart/form-data; boundary=xyz"},
		{"form sign-in", "/admin/login", "application/x-www-form-urlencoded"},
		{"web chat", "/api/chat", "application/json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			conn.SetReadDeadline(time.Now().Add(20 * time.Second))
			head := "POST " + tc.path + " HTTP/1.1\r\nHost: shop\r\nContent-Type: " + tc.contentType +
				"\r\nCookie: shopbot_login_csrf=tok\r\nContent-Length: 400\r\n\r\n"
			if _, err := io.WriteString(conn, head); err != nil {
				t.Fatal(err)
			}
			sent := trickle(conn, slow, 20*time.Millisecond)
			got, err := io.ReadAll(bufio.NewReader(conn)) // returns when the server closes
			if ne := net.Error(nil); errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("connection still open after 20 s; read %q", got)
			}
			if n := <-sent; n >= len(slow) {
				t.Errorf("all %d bytes were accepted", n)
			}
			if !strings.HasPrefix(string(got), "HTTP/1.1 4") {
				t.Errorf("response %.80q, want a 4xx", got)
			}
		})
	}
}

// TestSignInRouteHasNoUploadWindow: the sign-in route refuses a
// multipart body at once (415) without reading it.
func TestSignInRouteHasNoUploadWindow(t *testing.T) {
	db := catalogtest.SQLite(t)
	adm := admin.New(admin.Config{Registry: prometheus.NewRegistry(), DB: db})
	var ready atomic.Bool
	mux := routes(httpHandlers{admin: adm, chat: web.New(noEngine{t}, nil), ready: &ready})
	addr := startTestServer(t, mux, serverTimeouts)
	req, _ := http.NewRequest("POST", "http://"+addr+"/admin/login", strings.NewReader("--xyz\r\n"))
	req.Header.Set("Content-Type", "multipart/form-data; boundary=xyz")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("multipart sign-in: %d, want 415", resp.StatusCode)
	}
}
