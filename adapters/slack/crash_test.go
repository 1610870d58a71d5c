package slack_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"shopbot/catalog/demo"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine"
	"shopbot/engine/session"
)

// dying is the real engine crashed at its n-th step (engine.Config.Crash);
// after the crash the turn hangs until the adapter stops, as a dead
// process never reports back, so its request stays unhandled.
type dying struct {
	eng     *engine.Engine
	n       int
	crashed chan string

	mu    sync.Mutex
	steps []string
}

func (d *dying) crash(step string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.steps = append(d.steps, step)
	if len(d.steps) == d.n {
		d.crashed <- step
		return true
	}
	return false
}

func (d *dying) Handle(ctx context.Context, t engine.Turn, sink engine.Sink) error {
	err := d.eng.Handle(ctx, t, sink)
	if errors.Is(err, session.ErrCrashed) {
		<-ctx.Done()
		return ctx.Err()
	}
	return err
}

// TestResumeAfterCrashAtEveryStep: an Add press in a channel whose turn
// dies at any step (inside or after the cart change's transaction, before
// or inside the persist) is resumed by the next process and adds once;
// resumed yet again it is a replay and adds nothing.
func TestResumeAfterCrashAtEveryStep(t *testing.T) {
	for n, step := range []string{"effect-tx", "effect", "persist", "persist-tx"} {
		t.Run(step, func(t *testing.T) {
			d := &dying{n: n + 1, crashed: make(chan string, 1)}
			e := newEnv(t, d)
			if _, err := demo.Load(context.Background(), e.db); err != nil {
				t.Fatal(err)
			}
			eng, err := engine.New(engine.Config{DB: e.db, Search: searchtest.NewDatabase(e.db), Registry: prometheus.NewRegistry(), Crash: d.crash})
			if err != nil {
				t.Fatal(err)
			}
			d.eng = eng
			press(t, e, "t1")
			select {
			case got := <-d.crashed:
				if got != step {
					t.Fatalf("crashed at %s, want %s", got, step)
				}
			case <-time.After(patience):
				t.Fatalf("the press never reached step %s (crash point %d)", step, d.n)
			}
			e.restart(nil)
			if !e.fake.Wait(patience, func() bool { return e.unhandled() == 0 }) {
				t.Fatalf("not resumed: %d unhandled", e.unhandled())
			}
			e.ad.Wait()
			if qty := cartUnits(t, e); qty != 1 {
				t.Errorf("cart holds %d items after the resume, want 1", qty)
			}
			if _, err := e.db.NewRaw("UPDATE inbox SET handled_at = NULL WHERE source = 'slack'").Exec(context.Background()); err != nil {
				t.Fatal(err)
			}
			e.restart(nil)
			if !e.fake.Wait(patience, func() bool { return e.unhandled() == 0 }) {
				t.Fatalf("not resumed again: %d unhandled", e.unhandled())
			}
			e.ad.Wait()
			if qty := cartUnits(t, e); qty != 1 {
				t.Errorf("cart holds %d items after a second resume, want 1", qty)
			}
		})
	}
}

// press clicks Add for one size of a demo shoe (a variant: its parent
// SHO-RUN-001 cannot go into a cart) under a message in channel C1.
func press(t *testing.T, e *env, trigger string) {
	t.Helper()
	payload, _ := json.Marshal(map[string]any{
		"type": "block_actions", "user": map[string]any{"id": "UANN", "username": "ann"}, "trigger_id": trigger,
		"container": map[string]any{"type": "message", "message_ts": "1.2", "channel_id": "C1", "is_ephemeral": true},
		"channel":   map[string]any{"id": "C1"}, "response_url": e.fake.ResponseURL(trigger),
		"actions": []map[string]any{{"type": "button", "action_id": "add|SHO-RUN-001-42|1", "value": "add|SHO-RUN-001-42|1", "block_id": "x"}},
	})
	resp := e.send("/slack/interactions", "application/x-www-form-urlencoded", []byte(url.Values{"payload": {string(payload)}}.Encode()))
	if resp.StatusCode != 200 {
		t.Fatalf("interaction %d", resp.StatusCode)
	}
}

func cartUnits(t *testing.T, e *env) int {
	t.Helper()
	var qty int
	if err := e.db.NewRaw("SELECT coalesce(sum(quantity), 0) FROM cart_items").Scan(context.Background(), &qty); err != nil {
		t.Fatal(err)
	}
	return qty
}
