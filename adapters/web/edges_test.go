package web_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/adapters/web"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine"
)

// TestChatBodyTooLarge: a body far over the limit gets a 413 with a JSON
// error that the client actually reads, even one that sends its whole
// body before it reads (without draining, the server closed on it and the
// client's writes ended in a connection reset).
func TestChatBodyTooLarge(t *testing.T) {
	f := &fakeEngine{}
	srv := httptest.NewServer(newChat(f))
	defer srv.Close()
	for _, size := range []int{9 << 10, 1 << 20, 4 << 20} {
		body := `{"session":"` + session + `","message":"` + strings.Repeat("a", size) + `"}`
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "POST /api/chat HTTP/1.1\r\nHost: shop\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
		if _, err := io.WriteString(conn, body); err != nil {
			t.Fatalf("%d bytes: sending: %v", size, err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%d bytes: %v", size, err)
		}
		got, _ := io.ReadAll(resp.Body)
		conn.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(got), `"error"`) {
			t.Errorf("%d bytes: %d %s", size, resp.StatusCode, got)
		}
	}
	if len(f.turns) != 0 {
		t.Error("an oversized body reached the engine")
	}
}

// TestChatIdempotencyKey: a key over 64 characters or with control
// characters is refused with a 400, not silently ignored; a valid key is
// the turn's DedupKey.
func TestChatIdempotencyKey(t *testing.T) {
	for key, want := range map[string]int{
		strings.Repeat("k", 64): http.StatusOK,
		strings.Repeat("k", 65): http.StatusBadRequest,
		"key\x01":               http.StatusBadRequest,
		"ключ":                  http.StatusBadRequest,
	} {
		f := &fakeEngine{events: []engine.Event{{Kind: engine.EventDone, Text: "ok"}}}
		r := httptest.NewRequest(http.MethodPost, "/api/chat", strings.NewReader(`{"session":"`+session+`","message":"hi"}`))
		r.Header.Set("Idempotency-Key", key)
		w := httptest.NewRecorder()
		newChat(f).ServeHTTP(w, r)
		if w.Code != want {
			t.Errorf("key %q: %d %s", key, w.Code, w.Body)
		}
		if want == http.StatusBadRequest && (len(f.turns) != 0 || !strings.Contains(w.Body.String(), "Idempotency-Key must be at most 64 characters")) {
			t.Errorf("key %q: %s, %d turns", key, w.Body, len(f.turns))
		}
		if want == http.StatusOK && f.turns[0].DedupKey != key {
			t.Errorf("key %q: dedup key %q", key, f.turns[0].DedupKey)
		}
	}
}

// TestChatUnavailable: when the engine reports the database unavailable
// (it has sent its polite error event), both modes answer 503 with
// Retry-After and a JSON error, not a 500 or a 200 stream.
func TestChatUnavailable(t *testing.T) {
	f := &fakeEngine{
		events: []engine.Event{{Kind: engine.EventError, Text: "Sorry"}},
		err:    fmt.Errorf("engine: open session: %w", engine.ErrUnavailable),
	}
	for _, accept := range []string{"", "text/event-stream"} {
		w := post(newChat(f), `{"session":"`+session+`","message":"hi"}`, accept)
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "5" || !strings.Contains(w.Body.String(), `"error"`) {
			t.Errorf("accept %q: %d %v %s", accept, w.Code, w.Header(), w.Body)
		}
	}
}

// TestChatLeavesCleaningToTheEngine: NUL, control characters and invalid
// UTF-8 in the name, locale and message are accepted and handed to the
// engine as sent; engine.Handle cleans every turn field in one place
// before anything is stored (engine's TestTurnFieldsCleaned).
func TestChatLeavesCleaningToTheEngine(t *testing.T) {
	f := &fakeEngine{events: []engine.Event{{Kind: engine.EventDone, Text: "ok"}}}
	body := `{"session":"` + session + `","name":"A\u0000nn\u0007 ` + "\xff" + `","locale":"e\u0000n","message":"hi\u0000 there"}`
	if w := post(newChat(f), body, ""); w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	if tr := f.turns[0]; tr.UserName != "A\x00nn\a \uFFFD" || tr.Locale != "e\x00n" || tr.Text != "hi\x00 there" {
		t.Errorf("turn %q %q %q", tr.UserName, tr.Locale, tr.Text)
	}
}

// shop is the web chat on a real engine over a demo catalog.
func shop(t testing.TB, db *bun.DB) http.Handler {
	t.Helper()
	if _, err := demo.Load(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(engine.Config{DB: db, Search: searchtest.NewDatabase(db), RateLimit: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	return web.New(eng, slog.New(slog.DiscardHandler))
}

// TestChatBadBytesOnPostgres: a name and locale holding NUL (as JSON
// escapes) are answered 200 on Postgres, which refuses NUL in text, and
// the shopper's later turns still answer.
func TestChatBadBytesOnPostgres(t *testing.T) {
	db, _ := catalogtest.Postgres(t)
	h := shop(t, db)
	for i, body := range []string{
		`{"session":"` + session + `","name":"Ann\u0000","locale":"en\u0000","message":"sneakers"}`,
		`{"session":"` + session + `","name":"Ann\u0000","locale":"en\u0000","message":"cart\u0000"}`,
		`{"session":"` + session + `","message":"hello"}`,
	} {
		if w := post(h, body, ""); w.Code != 200 {
			t.Errorf("turn %d: %d %s", i, w.Code, w.Body)
		}
	}
}

// TestChatDatabaseDown: with the database gone, the web chat answers 503
// with Retry-After, in both modes, on both databases.
func TestChatDatabaseDown(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		h := shop(t, db)
		if w := post(h, `{"session":"`+session+`","message":"hi"}`, ""); w.Code != 200 {
			t.Fatalf("before: %d %s", w.Code, w.Body)
		}
		db.Close()
		for _, accept := range []string{"", "text/event-stream"} {
			w := post(h, `{"session":"`+session+`","message":"hi again"}`, accept)
			if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
				t.Errorf("accept %q: %d %v %s", accept, w.Code, w.Header(), w.Body)
			}
		}
	})
}

// FuzzWebChat: whatever bytes a client puts in the name, locale and
// message (invalid UTF-8, NUL, JSON escapes of control characters, broken
// JSON), the answer is never a 500 and no NUL is stored — on SQLite, which
// would store one, and on Postgres, which would fail the turn.
func FuzzWebChat(f *testing.F) {
	for _, seed := range [][3]string{
		{"Ann", "en", "red sneakers"},
		{`Ann\u0000`, `en\u0000`, `hi\u0000`},
		{"Ann\x00", "en", "hi"},
		{"\xff\xfe", "\xc3", "price \xff under 100"},
		{`\u0007\u001b[31m`, `ru\ud800`, `add\u0000 to cart`},
		{`","x":"`, "en", `\"`},
		{"", "", ""},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	lite := catalogtest.SQLite(f)
	pg, _ := catalogtest.Postgres(f)
	shops := map[string]http.Handler{"sqlite": shop(f, lite), "postgres": shop(f, pg)}
	var n atomic.Int64
	f.Fuzz(func(t *testing.T, name, locale, message string) {
		sess := fmt.Sprintf("fuzz-session-%08d", n.Add(1))
		body := `{"session":"` + sess + `","name":"` + name + `","locale":"` + locale + `","message":"` + message + `"}`
		for kind, h := range shops {
			for _, accept := range []string{"", "text/event-stream"} {
				w := post(h, body, accept)
				if w.Code >= 500 {
					t.Fatalf("%s %q: %d %s", kind, body, w.Code, w.Body)
				}
			}
		}
		var stored int
		err := lite.NewRaw(`SELECT (SELECT count(*) FROM customers WHERE instr(display_name || username || locale, char(0)) > 0)
			+ (SELECT count(*) FROM messages WHERE instr(content, char(0)) > 0)`).Scan(context.Background(), &stored)
		if err != nil || stored != 0 {
			t.Fatalf("NUL stored in %d rows (%v) after %q", stored, err, body)
		}
	})
}
