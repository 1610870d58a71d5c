package telegram

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/adapters/telegram/telegramtest"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine"
)

// TestResumeAfterCrash: an Add press whose turn dies at any step (inside
// or after the cart change's transaction, before or inside the persist)
// stays unhandled in the inbox; the restarted adapter resumes it, the
// item is added once and the shopper gets the cart. Resumed yet again,
// the engine reports a replay and nothing changes. SQLite and Postgres.
func TestResumeAfterCrash(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		seed(t, db)
		steps := []string{"effect-tx", "effect", "persist", "persist-tx"}
		for n, step := range steps {
			user := int64(700 + n)
			chat := strconv.FormatInt(user, 10)
			u := telegramtest.Callback(models.Chat{ID: user, Type: models.ChatTypePrivate}, telegramtest.User(user, "Eve"), 1, "add|"+mugSKU+"|1")
			u.ID = 9000 + int64(n)
			record(t, db, u)
			if seen := runUntilCrash(t, db, nil, n+1); seen[n] != step {
				t.Fatalf("crashed at %v, want %s", seen, step)
			}
			if handled, err := isHandled(db, u.ID); err != nil || handled {
				t.Fatalf("crash at %s: the update was marked handled", step)
			}
			r := newRig(t, db, nil) // the process came back
			r.waitHandled(u.ID)
			r.waitSent(chat, "the cart", func(c telegramtest.Call) bool { return c.Method == "sendMessage" && strings.Contains(c.Text(), "× 1") })
			if got := mugsInCart(t, db, chat); got != 1 {
				t.Errorf("crash at %s: %d mugs in the cart, want 1", step, got)
			}
			// Resumed once more (say the mark was lost): a replay, no change.
			if _, err := db.NewRaw("UPDATE inbox SET handled_at = NULL WHERE source = 'telegram' AND key = ?", strconv.FormatInt(u.ID, 10)).Exec(context.Background()); err != nil {
				t.Fatal(err)
			}
			newRig(t, db, nil).waitHandled(u.ID)
			if got := mugsInCart(t, db, chat); got != 1 {
				t.Errorf("crash at %s, resumed twice: %d mugs in the cart, want 1", step, got)
			}
		}
	})
}

// runUntilCrash starts an adapter on srv (a new fake when nil) whose
// engine dies at its crashAt-th step: the hook stops the whole adapter
// there, turns included (their context, a.ctx, is cancelled before the
// turn returns), as a killed process would, and returns the steps seen.
func runUntilCrash(t *testing.T, db *bun.DB, srv *telegramtest.Server, crashAt int) []string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var steps []string
	var a *Adapter // set before Run, so before any turn
	eng, err := engine.New(engine.Config{DB: db, Search: searchtest.NewDatabase(db), Logger: logger(t), RateLimit: 10_000,
		Crash: func(step string) bool {
			mu.Lock()
			defer mu.Unlock()
			steps = append(steps, step)
			if len(steps) == crashAt {
				a.cancel()
				cancel()
				return true
			}
			return false
		}})
	if err != nil {
		t.Fatal(err)
	}
	if srv == nil {
		srv = telegramtest.NewServer(t, token)
	}
	a, err = New(Config{Token: token, APIURL: srv.URL, DB: db, Engine: eng, Shop: eng, Logger: logger(t), Registry: prometheus.NewRegistry(),
		PollTimeout: time.Second, PrivateEvery: time.Millisecond, GroupEvery: time.Millisecond, Burst: 100})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("the turn did not crash; steps %v", steps)
	}
	mu.Lock()
	defer mu.Unlock()
	return steps
}

func mugsInCart(t *testing.T, db *bun.DB, userID string) int {
	t.Helper()
	ctx := context.Background()
	c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: "telegram", PlatformUserID: userID})
	if err != nil {
		t.Fatal(err)
	}
	cart, err := catalog.GetCart(ctx, db, catalog.PersonalCart(c.ID))
	if err != nil {
		t.Fatal(err)
	}
	return cart.Count()
}
