package main

import (
	"bufio"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// startTestServer serves h with the production server settings but the
// given timeouts, and returns its address.
func startTestServer(t *testing.T, h http.Handler, to httpTimeouts) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newHTTPServer(h, slog.New(slog.DiscardHandler), to)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// trickle writes s one byte per tick until it is written or the server
// closes the connection, and reports how many bytes got through.
func trickle(conn net.Conn, s string, tick time.Duration) <-chan int {
	sent := make(chan int, 1)
	go func() {
		t := time.NewTicker(tick)
		defer t.Stop()
		n := 0
		for ; n < len(s); n++ {
			if _, err := conn.Write([]byte{s[n]}); err != nil {
				break
			}
			<-t.C
		}
		sent <- n
	}()
	return sent
}

// TestSlowClientsAreCut: a client that sends its headers slower than
// ReadHeaderTimeout, or its body slower than ReadTimeout, has its
// connection closed by the server; the handler never runs for the first.
// The test waits on the connection's read returning, not on a clock.
func TestSlowClientsAreCut(t *testing.T) {
	ran := make(chan string, 2)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		ran <- r.URL.Path
		if err != nil {
			http.Error(w, "body too slow", http.StatusBadRequest)
			return
		}
		io.WriteString(w, "ok")
	})
	to := httpTimeouts{ReadHeader: 200 * time.Millisecond, Read: 400 * time.Millisecond, Write: time.Second, Idle: time.Second}
	addr := startTestServer(t, h, to)

	cases := []struct {
		name, head, slow string
		want             string // the response's start, or "" for a bare close
	}{
		{name: "headers", slow: "GET /headers HTTP/1.1\r\nHost: shop\r\nX-Pad: " + strings.Repeat("a", 200) + "\r\n\r\n"},
		{name: "body", head: "POST /body HTTP/1.1\r\nHost: shop\r\nContent-Length: 200\r\n\r\n", slow: strings.Repeat("b", 200), want: "HTTP/1.1 400"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			// A safety net only: a server that never cuts fails the test
			// instead of hanging it.
			conn.SetReadDeadline(time.Now().Add(20 * time.Second))
			if _, err := io.WriteString(conn, tc.head); err != nil {
				t.Fatal(err)
			}
			sent := trickle(conn, tc.slow, 20*time.Millisecond)
			got, err := io.ReadAll(bufio.NewReader(conn)) // returns when the server closes
			if ne := net.Error(nil); errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("connection still open after 20 s; read %q", got)
			}
			if n := <-sent; n >= len(tc.slow) {
				t.Errorf("all %d bytes were accepted", n)
			}
			if !strings.HasPrefix(string(got), tc.want) {
				t.Errorf("response %q, want prefix %q", got, tc.want)
			}
		})
	}
	close(ran)
	var paths []string
	for p := range ran {
		paths = append(paths, p)
	}
	if strings.Join(paths, ",") != "/body" {
		t.Errorf("handlers ran for %v, want only /body", paths)
	}
}

// TestServerSettings: the production server bounds headers, bodies,
// responses and idle connections.
func TestServerSettings(t *testing.T) {
	srv := newHTTPServer(http.NotFoundHandler(), slog.New(slog.DiscardHandler), serverTimeouts)
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 || srv.IdleTimeout <= 0 || srv.MaxHeaderBytes != maxHeaderBytes {
		t.Errorf("server %+v", srv)
	}
}
