package web_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/adapters/web"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine"
)

// TestChatRateLimitRetryAfter: a 429 says when to come back, in JSON
// and in the event stream, from the engine's window; a real engine's
// limit gives a wait within its window.
func TestChatRateLimitRetryAfter(t *testing.T) {
	f := &fakeEngine{err: fmt.Errorf("turn: %w", &engine.RateLimitedError{RetryAfter: 41500 * time.Millisecond})}
	for _, accept := range []string{"", "text/event-stream"} {
		w := post(newChat(f), `{"session":"`+session+`","message":"hi"}`, accept)
		if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "42" {
			t.Errorf("accept %q: %d, Retry-After %q; want 429 and 42", accept, w.Code, w.Header().Get("Retry-After"))
		}
	}

	db := catalogtest.SQLiteDemo(t)
	eng, err := engine.New(engine.Config{DB: db, Search: searchtest.NewDatabase(db), RateLimit: 1, RateWindow: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	chat := web.New(eng, slog.New(slog.DiscardHandler))
	if w := post(chat, `{"session":"`+session+`","message":"hi"}`, ""); w.Code != http.StatusOK {
		t.Fatalf("first turn: %d %s", w.Code, w.Body)
	}
	w := post(chat, `{"session":"`+session+`","message":"hi again"}`, "")
	if s, _ := strconv.Atoi(w.Header().Get("Retry-After")); w.Code != http.StatusTooManyRequests || s < 1 || s > 60 {
		t.Errorf("second turn: %d, Retry-After %q; want 429 and 1-60", w.Code, w.Header().Get("Retry-After"))
	}
}

// TestChatReplayedKeyLongAfter: an Idempotency-Key replayed after 17
// other turns — past the conversation's recent turns the engine keeps —
// is still answered 409 and nothing runs, on SQLite and Postgres; once
// the key's time (24 h) is over it is a new turn. Without remembered
// keys the replay was taken as a new turn.
func TestChatReplayedKeyLongAfter(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
		chat := shop(t, db).(*web.Chat)
		chat.RememberKeys(&catalog.IdempotencyKeys{DB: db, TTL: 24 * time.Hour, Now: func() time.Time { return now }})
		send := func(key, msg string) *httptest.ResponseRecorder {
			r := httptest.NewRequest(http.MethodPost, "/api/chat", strings.NewReader(`{"session":"`+session+`","message":"`+msg+`"}`))
			if key != "" {
				r.Header.Set("Idempotency-Key", key)
			}
			w := httptest.NewRecorder()
			chat.ServeHTTP(w, r)
			return w
		}
		if w := send("first-key", "sneakers"); w.Code != http.StatusOK {
			t.Fatalf("first turn: %d %s", w.Code, w.Body)
		}
		for i := range 17 {
			key := ""
			if i%2 == 0 {
				key = fmt.Sprintf("other-%d", i)
			}
			if w := send(key, fmt.Sprintf("hello %d", i)); w.Code != http.StatusOK {
				t.Fatalf("turn %d: %d %s", i, w.Code, w.Body)
			}
		}
		msgs := countMessages(t, db)
		w := send("first-key", "sneakers")
		if w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), "Idempotency-Key was used before") {
			t.Errorf("replay after 17 turns: %d %s, want 409", w.Code, w.Body)
		}
		if n := countMessages(t, db); n != msgs {
			t.Errorf("the replay stored %d messages", n-msgs)
		}
		if w := send("first-key", "sneakers"); w.Code != http.StatusConflict {
			t.Errorf("second replay: %d, want 409", w.Code)
		}
		now = now.Add(24 * time.Hour)
		if w := send("first-key", "sneakers"); w.Code != http.StatusOK {
			t.Errorf("the key a day later: %d %s, want a new turn", w.Code, w.Body)
		}
	})
}

func countMessages(t *testing.T, db *bun.DB) int {
	t.Helper()
	n, err := db.NewSelect().TableExpr("messages").Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}
