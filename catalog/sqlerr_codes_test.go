package catalog_test

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"testing"

	"shopbot/catalog"
)

// fakePostgres answers every connection's startup with a FATAL
// ErrorResponse carrying code, the way a server that cannot take
// connections now does (starting up, shutting down, a standby).
func fakePostgres(t *testing.T, code string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go answerStartup(c, code)
		}
	}()
	return ln.Addr().String()
}

func answerStartup(c net.Conn, code string) {
	defer c.Close()
	r := bufio.NewReader(c)
	for {
		var n int32
		if binary.Read(r, binary.BigEndian, &n) != nil || n < 8 {
			return
		}
		msg := make([]byte, n-4)
		if _, err := io.ReadFull(r, msg); err != nil {
			return
		}
		if binary.BigEndian.Uint32(msg) == 80877103 { // SSLRequest: no
			if _, err := c.Write([]byte{'N'}); err != nil {
				return
			}
			continue
		}
		var body []byte
		for _, f := range [][2]string{{"S", "FATAL"}, {"V", "FATAL"}, {"C", code}, {"M", "the database system is not accepting connections"}} {
			body = append(append(append(body, f[0][0]), f[1]...), 0)
		}
		body = append(body, 0)
		out := append([]byte{'E'}, binary.BigEndian.AppendUint32(nil, uint32(len(body)+4))...)
		_, _ = c.Write(append(out, body...))
		return
	}
}

// TestUnavailableCodes: the SQLSTATEs of a server that cannot serve now
// (55000 not in prerequisite state, 57P03 cannot connect now, class 08
// and class 53) are ErrUnavailable — a 503 with Retry-After at the edges
// — and a request's own error (42P01, 23505) is not.
func TestUnavailableCodes(t *testing.T) {
	for code, want := range map[string]bool{
		"55000": true, "57P03": true, "57P01": true, "08006": true, "08001": true, "53300": true, "53100": true,
		"42P01": false, "23505": false, "22P02": false,
	} {
		t.Run(code, func(t *testing.T) {
			db, _, err := catalog.OpenDB("postgres://postgres@" + fakePostgres(t, code) + "/test?sslmode=disable")
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			_, err = db.ExecContext(context.Background(), "SELECT 1")
			if err == nil {
				t.Fatal("the fake server accepted a query")
			}
			if got := errors.Is(catalog.Unavailable(err), catalog.ErrUnavailable); got != want {
				t.Errorf("%s: unavailable %v, want %v (%v)", code, got, want, err)
			}
		})
	}
}
