package catalog_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestImportJobs: a job is created running, its progress and kept errors
// are saved (twice is harmless), it is read back on another connection
// pool, a stale heartbeat shows as interrupted, and pruning keeps the
// newest jobs with their errors.
func TestImportJobs(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		j := &catalog.ImportJob{FileName: "products.csv", SizeBytes: 1000, StartedBy: "admin", StartedAt: t0}
		if err := catalog.CreateImportJob(ctx, db, j); err != nil || j.ID == 0 {
			t.Fatalf("create: id %d, %v", j.ID, err)
		}
		if err := catalog.CreateImportJob(ctx, db, &catalog.ImportJob{}); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("a job without a file name: %v", err)
		}
		j.RowsRead, j.Failed, j.BytesRead, j.HeartbeatAt = 10, 2, 400, t0.Add(time.Second)
		errs := []catalog.ImportJobError{{Seq: 1, Line: 2, SKU: "A", Reason: "bad price"}, {Seq: 2, Line: 5, Reason: "missing sku"}}
		for range 2 { // a retried save changes nothing
			if err := catalog.SaveImportJob(ctx, db, j, errs); err != nil {
				t.Fatal(err)
			}
		}
		got, err := catalog.GetImportJob(ctx, db, j.ID)
		if err != nil || got.Status != catalog.ImportRunning || got.RowsRead != 10 || got.Failed != 2 || got.BytesRead != 400 ||
			got.StartedBy != "admin" || !got.HeartbeatAt.Equal(t0.Add(time.Second)) || !got.FinishedAt.IsZero() {
			t.Fatalf("job = %+v, %v", got, err)
		}
		if s := got.State(t0.Add(time.Minute), catalog.ImportStaleAfter); s != catalog.ImportRunning {
			t.Errorf("a fresh heartbeat: state %s", s)
		}
		if s := got.State(t0.Add(time.Hour), catalog.ImportStaleAfter); s != catalog.ImportInterrupted {
			t.Errorf("a heartbeat an hour old: state %s, want interrupted", s)
		}
		kept, err := catalog.ImportJobErrors(ctx, db, j.ID, 1000)
		if err != nil || len(kept) != 2 || kept[0].Line != 2 || kept[1].Reason != "missing sku" {
			t.Fatalf("errors = %+v, %v", kept, err)
		}

		j.Status, j.FinishedAt.Time, j.Imported, j.Failed = catalog.ImportDone, t0.Add(time.Minute), 8, 2
		if err := catalog.SaveImportJob(ctx, db, j, nil); err != nil {
			t.Fatal(err)
		}
		got, _ = catalog.GetImportJob(ctx, db, j.ID)
		if got.State(t0.Add(time.Hour), catalog.ImportStaleAfter) != catalog.ImportDone || !got.FinishedAt.Equal(t0.Add(time.Minute)) {
			t.Errorf("finished job = %+v", got)
		}

		for i := range 4 {
			if err := catalog.CreateImportJob(ctx, db, &catalog.ImportJob{FileName: "more.csv", StartedAt: t0.Add(time.Duration(i) * time.Hour)}); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := catalog.PruneImportJobs(ctx, db, 3); err != nil || n != 2 {
			t.Fatalf("prune deleted %d, %v; want 2", n, err)
		}
		list, _ := catalog.ListImportJobs(ctx, db, 10)
		if len(list) != 3 || list[0].ID < list[2].ID {
			t.Errorf("kept %d jobs, newest first? %+v", len(list), list)
		}
		if _, err := catalog.GetImportJob(ctx, db, j.ID); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("the pruned job: %v", err)
		}
		if kept, _ := catalog.ImportJobErrors(ctx, db, j.ID, 1000); len(kept) != 0 {
			t.Errorf("the pruned job's errors are left: %+v", kept)
		}
		if err := catalog.SaveImportJob(ctx, db, j, nil); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("saving a pruned job: %v", err)
		}
	})
}
