package telegram

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/adapters/inbox"
	"shopbot/adapters/telegram/telegramtest"
	"shopbot/catalog/catalogtest"
)

// TestResumedTurnEditsItsCartMessage: a /cart turn dies after it posted
// the cart message (at the persist step); run again (resumed), it edits
// the cart message it posted instead of posting a second one. SQLite and
// Postgres.
func TestResumedTurnEditsItsCartMessage(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		seed(t, db)
		srv := telegramtest.NewServer(t, token)
		u := telegramtest.Text(telegramtest.User(811, "Ida"), "/cart")
		u.ID = 9811
		record(t, db, u)
		if seen := runUntilCrash(t, db, srv, 1); len(seen) == 0 || seen[0] != "persist" {
			t.Fatalf("crashed at %v, want persist", seen)
		}
		if n := len(cartMessages(srv, "811", "sendMessage")); n != 1 {
			t.Fatalf("%d cart messages before the crash, want 1", n)
		}
		r := newRig(t, db, func(c *Config) { c.APIURL = srv.URL })
		r.waitHandled(u.ID)
		if n := len(cartMessages(srv, "811", "sendMessage")); n != 1 {
			t.Errorf("%d cart messages posted after the resume, want 1", n)
		}
		if n := len(cartMessages(srv, "811", "editMessageText")); n != 1 {
			t.Errorf("%d cart edits after the resume, want 1 (the resumed turn's)", n)
		}
	})
}

// cartMessages are the calls of method to chat that show the cart.
func cartMessages(srv *telegramtest.Server, chat, method string) []telegramtest.Call {
	var out []telegramtest.Call
	for _, c := range srv.Calls(method) {
		if c.Params["chat_id"] == chat && strings.Contains(c.Text(), "Your cart") {
			out = append(out, c)
		}
	}
	return out
}

// TestTakeOverOrphan: an update a replica recorded and then stopped
// renewing (it died) is taken over by another running replica once the
// lease runs out — by its sweep, with no restart: run once, and marked
// handled. The lease clock is the test's.
func TestTakeOverOrphan(t *testing.T) {
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		seed(t, dbs[0])
		var now atomic.Int64
		now.Store(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC).UnixNano())
		clock := func() time.Time { return time.Unix(0, now.Load()) }
		ctx, cancel := context.WithCancel(context.Background())
		dead, err := inbox.NewLeased(ctx, dbs[0], "telegram", inbox.Lease{Holder: "dead", Now: clock})
		if err != nil {
			t.Fatal(err)
		}
		u := telegramtest.Text(telegramtest.User(812, "Jo"), "/cart")
		u.ID = 9812
		if _, err := dead.Record(ctx, inbox.Update{Key: "9812", Chat: "812", Kind: kindUpdate, Payload: string(telegramtest.JSON(u))}, nil); err != nil {
			t.Fatal(err)
		}
		cancel() // it died holding the update: no renewal, no release
		r := newRig(t, dbs[1], func(c *Config) {
			c.Lease = inbox.Lease{Renew: 20 * time.Millisecond, Sweep: 20 * time.Millisecond, Now: clock}
		})
		if handled, err := isHandled(dbs[1], u.ID); err != nil || handled {
			t.Fatalf("handled %v (%v) while the dead replica's lease runs", handled, err)
		}
		now.Add(int64(inbox.DefaultLease + time.Second))
		r.waitHandled(u.ID)
		if n := len(cartMessages(r.srv, "812", "sendMessage")); n != 1 {
			t.Errorf("%d cart messages, want 1", n)
		}
	})
}
