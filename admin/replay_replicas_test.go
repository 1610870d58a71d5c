package admin_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/admin"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestReplayAcrossReplicas: two admin servers on one database (SQLite
// file, then Postgres). A batch started on A shows its progress and its
// result on B; B cannot start a second one meanwhile; a batch whose
// replica died shows as interrupted on B, which can start the next.
func TestReplayAcrossReplicas(t *testing.T) {
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		fa := &fakeReplayer{turns: replayTurns, release: make(chan struct{}), counted: make(chan struct{})}
		fb := &fakeReplayer{turns: replayTurns, release: released()}
		a := newPanelConfig(t, dbs[0], func(c *admin.Config) { c.Replayer = fa })
		b := newPanelConfig(t, dbs[1], func(c *admin.Config) { c.Replayer = fb })
		a.signIn()
		b.signIn()

		if code, _, _ := a.post("/admin/replay", url.Values{"since": {"24h"}}); code != 303 {
			t.Fatalf("start on A: %d", code)
		}
		select {
		case <-fa.counted:
		case <-time.After(30 * time.Second):
			t.Fatal("A's replay did not count its turns within 30 s")
		}
		_, body := b.get("/admin/replay")
		if !strings.Contains(body, `data-state="running"`) || !strings.Contains(body, "Replaying… 0 of 2 turns") {
			t.Fatalf("B does not show A's running batch:\n%s", body)
		}
		if code, _, _ := b.post("/admin/replay", url.Values{"since": {"1h"}}); code != 303 {
			t.Errorf("second start on B: %d", code)
		}
		close(fa.release)
		a.admin.WaitReplay()
		b.admin.WaitReplay() // returns at once: B started nothing
		_, body = b.get("/admin/replay")
		if !strings.Contains(body, `data-state="done"`) || !strings.Contains(body, "Replayed 2 turns") ||
			!strings.Contains(body, `<a href="/admin/conversations/7/replay">7</a>`) {
			t.Fatalf("B does not show A's result:\n%s", body)
		}
		ctx := context.Background()
		if n, err := dbs[1].NewSelect().Model((*catalog.ReplayBatch)(nil)).Count(ctx); err != nil || n != 1 {
			t.Fatalf("%d batches, want 1 (B's start while A ran must start nothing): %v", n, err)
		}

		// A replica died mid-batch: its heartbeat stopped three minutes ago.
		now := b.clock.Now()
		if _, err := catalog.StartReplayBatch(ctx, dbs[0], time.Hour, "admin", now.Add(-3*time.Minute)); err != nil {
			t.Fatal(err)
		}
		_, body = b.get("/admin/replay")
		if !strings.Contains(body, `data-state="interrupted"`) || strings.Contains(body, `http-equiv="refresh"`) ||
			!strings.Contains(body, "The replay stopped: the replica running it stopped before the end.") {
			t.Fatalf("a dead replica's batch:\n%s", body)
		}
		if code, _, _ := b.post("/admin/replay", url.Values{"since": {"1h"}}); code != 303 {
			t.Fatalf("start on B after the death: %d", code)
		}
		b.admin.WaitReplay()
		if _, body = a.get("/admin/replay"); !strings.Contains(body, `data-state="done"`) || !strings.Contains(body, "Replayed 2 turns") {
			t.Fatalf("A does not show B's new batch:\n%s", body)
		}
	})
}
