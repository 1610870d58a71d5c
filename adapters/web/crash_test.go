package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/adapters/web"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine"
	"shopbot/engine/view"
)

// crashAt crashes the n-th step of the turns it is armed for.
type crashAt struct {
	mu    sync.Mutex
	n     int
	steps []string
}

func (c *crashAt) hook(step string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.steps = append(c.steps, step)
	return len(c.steps) == c.n
}

// TestRetryAfterCrash: a POST whose turn dies at any step (inside or after
// the cart change's transaction, before or inside the persist) and is
// retried with the same Idempotency-Key adds the item once and answers;
// a third POST is a 409.
func TestRetryAfterCrash(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		probe := &crashAt{}
		postAdd(t, newEngineChat(t, db, probe.hook), "probe-session-000000", "K", http.StatusOK)
		if len(probe.steps) != 4 {
			t.Fatalf("steps of an Add press = %v", probe.steps)
		}
		for n := 1; n <= len(probe.steps); n++ {
			session := fmt.Sprintf("crash-session-%06d", n)
			crash := &crashAt{n: n}
			postAdd(t, newEngineChat(t, db, crash.hook), session, "K", http.StatusInternalServerError)
			restarted := newEngineChat(t, db, nil) // the process came back
			body := postAdd(t, restarted, session, "K", http.StatusOK)
			var resp struct{ Cart *view.CartView }
			if err := json.Unmarshal(body, &resp); err != nil || resp.Cart == nil || resp.Cart.Units != 2 {
				t.Errorf("crash at %s: the retry answered %s", probe.steps[n-1], body)
			}
			postAdd(t, restarted, session, "K", http.StatusConflict)
			c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: "web", PlatformUserID: session})
			if err != nil {
				t.Fatal(err)
			}
			cart, err := catalog.GetCart(ctx, db, catalog.PersonalCart(c.ID))
			if err != nil || cart.Count() != 2 {
				t.Errorf("crash at %s: %d units in the cart, want 2 (%v)", probe.steps[n-1], cart.Count(), err)
			}
		}
	})
}

func newEngineChat(t *testing.T, db *bun.DB, crash func(string) bool) *web.Chat {
	t.Helper()
	eng, err := engine.New(engine.Config{DB: db, Search: searchtest.NewDatabase(db), Registry: prometheus.NewRegistry(), Crash: crash})
	if err != nil {
		t.Fatal(err)
	}
	return web.New(eng, slog.New(slog.DiscardHandler))
}

// postAdd presses Add (2 units) with an Idempotency-Key and checks the
// status.
func postAdd(t *testing.T, h http.Handler, session, key string, want int) []byte {
	t.Helper()
	body := `{"session":"` + session + `","action":"add|SHO-RUN-001-42|2"}`
	r := httptest.NewRequest(http.MethodPost, "/api/chat", strings.NewReader(body))
	r.Header.Set("Idempotency-Key", key)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != want {
		t.Fatalf("POST %s: status %d, want %d: %s", session, w.Code, want, w.Body)
	}
	return w.Body.Bytes()
}
