package catalog_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestReplayBatches: a batch started on one replica is seen with its
// progress and result on another; one runs at a time across replicas
// (also when two start at once); a batch whose replica died shows as
// interrupted and does not block the next; a finished batch is not
// changed by a late progress or finish.
func TestReplayBatches(t *testing.T) {
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		ctx := context.Background()
		a, b := dbs[0], dbs[1]
		t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		if _, err := catalog.LatestReplayBatch(ctx, b); !errors.Is(err, catalog.ErrNotFound) {
			t.Fatalf("no batch yet: %v", err)
		}
		if _, err := catalog.StartReplayBatch(ctx, a, 0, "admin", t0); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("a zero window: %v", err)
		}

		// Two replicas start at once: one batch runs, the other is told so.
		var wg sync.WaitGroup
		errs := make([]error, 2)
		ids := make([]int64, 2)
		for i, db := range dbs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got, err := catalog.StartReplayBatch(ctx, db, 24*time.Hour, "admin", t0)
				ids[i], errs[i] = got.ID, err
			}()
		}
		wg.Wait()
		conflicts, started := 0, int64(0)
		for i, err := range errs {
			switch {
			case errors.Is(err, catalog.ErrConflict):
				conflicts++
			case err != nil:
				t.Fatalf("start %d: %v", i, err)
			default:
				started = ids[i]
			}
		}
		if conflicts != 1 || started == 0 {
			t.Fatalf("two starts at once: %v", errs)
		}

		// Progress written on A is read on B; done never goes back.
		if err := catalog.ReplayProgress(ctx, a, started, 3, 5, t0.Add(time.Second)); err != nil {
			t.Fatal(err)
		}
		if err := catalog.ReplayProgress(ctx, a, started, 2, 5, t0.Add(2*time.Second)); err != nil {
			t.Fatal(err)
		}
		got, err := catalog.LatestReplayBatch(ctx, b)
		if err != nil || got.ID != started || got.Done != 3 || got.Total != 5 || got.Since() != 24*time.Hour ||
			got.State(t0.Add(time.Minute)) != catalog.ReplayRunning || !got.HeartbeatAt.Equal(t0.Add(2*time.Second)) {
			t.Fatalf("on B: %+v, %v", got, err)
		}
		if err := catalog.FinishReplayBatch(ctx, a, started, `[{"Turn":1}]`, "", t0.Add(3*time.Second)); err != nil {
			t.Fatal(err)
		}
		got, _ = catalog.LatestReplayBatch(ctx, b)
		if got.Status != catalog.ReplayDone || got.Turns != `[{"Turn":1}]` || !got.FinishedAt.Time.Equal(t0.Add(3*time.Second)) {
			t.Fatalf("finished on B: %+v", got)
		}
		if err := catalog.FinishReplayBatch(ctx, b, started, "[]", "again", t0.Add(4*time.Second)); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("a second finish: %v", err)
		}
		if err := catalog.ReplayProgress(ctx, b, started, 5, 5, t0.Add(4*time.Second)); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("progress after the end: %v", err)
		}

		// A batch whose replica died: interrupted once its heartbeat is
		// stale, and the next start (on the other replica) goes ahead.
		t1 := t0.Add(time.Hour)
		dead, err := catalog.StartReplayBatch(ctx, a, time.Hour, "admin", t1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := catalog.StartReplayBatch(ctx, b, time.Hour, "admin", t1.Add(catalog.ReplayStaleAfter)); !errors.Is(err, catalog.ErrConflict) {
			t.Errorf("start while the heartbeat is fresh: %v", err)
		}
		late := t1.Add(catalog.ReplayStaleAfter + time.Second)
		got, _ = catalog.LatestReplayBatch(ctx, b)
		if got.ID != dead.ID || got.State(late) != catalog.ReplayInterrupted {
			t.Fatalf("stale batch: %+v state %s", got, got.State(late))
		}
		next, err := catalog.StartReplayBatch(ctx, b, time.Hour, "admin", late)
		if err != nil {
			t.Fatalf("start after the holder died: %v", err)
		}
		got, _ = catalog.LatestReplayBatch(ctx, a)
		if got.ID != next.ID || got.Status != catalog.ReplayRunning {
			t.Fatalf("latest is not the new batch: %+v", got)
		}
		var old catalog.ReplayBatch
		if err := a.NewSelect().Model(&old).Where("id = ?", dead.ID).Scan(ctx); err != nil || old.Status != catalog.ReplayInterrupted {
			t.Fatalf("the dead batch is stored as %q, %v", old.Status, err)
		}
		if err := catalog.FinishReplayBatch(ctx, a, dead.ID, "[]", "", late); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("a finish from the presumed-dead replica changed an interrupted batch: %v", err)
		}
	})
}
