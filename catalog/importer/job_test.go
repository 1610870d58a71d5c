package importer_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/importer"
)

// fakeClock advances only when told.
type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time { return c.now }

// TestJobRecordsProgress: while a job runs, another replica reads its
// progress from the database; writes are throttled by the injected clock
// (one every 250 ms, not one per batch); at the end the row holds the
// counts and the first 1,000 errors, and the rest are counted. A job whose
// heartbeat stopped (its process died) reads as interrupted.
func TestJobRecordsProgress(t *testing.T) {
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		db, other := dbs[0], dbs[1]
		ctx := context.Background()
		clock := &fakeClock{now: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)}
		body := badRows(5000, "many") + "GOOD-2,Good,2.00,1\n"
		job, err := importer.StartJob(ctx, db, catalog.ImportJob{FileName: "bad.csv", SizeBytes: int64(len(body)), StartedBy: "admin"},
			importer.JobConfig{Now: clock.Now})
		if err != nil {
			t.Fatal(err)
		}
		var calls int
		seen := map[int64]bool{} // rows_read values the other replica saw
		stale := false
		sum, err := job.Run(ctx, strings.NewReader(body), importer.Options{Progress: func(p importer.Progress) {
			calls++
			clock.now = clock.now.Add(100 * time.Millisecond)
			j, err := catalog.GetImportJob(ctx, other, job.ID())
			if err != nil || j.Status != catalog.ImportRunning {
				t.Fatalf("job during the import: %+v, %v", j, err)
			}
			seen[j.RowsRead] = true
			stale = stale || j.State(clock.now.Add(3*time.Minute), catalog.ImportStaleAfter) == catalog.ImportInterrupted
		}})
		if err != nil || sum.Failed != 5000 || sum.Imported != 2 {
			t.Fatalf("summary = %v, %v", sum, err)
		}
		if calls < 5 || len(seen) < 2 || len(seen) > calls/2+1 {
			t.Errorf("%d progress calls, the other replica saw %d distinct counts: want progress written, throttled", calls, len(seen))
		}
		if !stale {
			t.Error("a running job with a heartbeat 3 minutes old did not read as interrupted")
		}
		j, err := catalog.GetImportJob(ctx, other, job.ID())
		if err != nil || j.State(clock.now.Add(time.Hour), catalog.ImportStaleAfter) != catalog.ImportDone ||
			j.RowsRead != 5002 || j.Imported != 2 || j.Failed != 5000 || j.BytesRead != int64(len(body)) || j.Format != "csv" {
			t.Fatalf("finished job = %+v, %v", j, err)
		}
		kept, err := catalog.ImportJobErrors(ctx, other, job.ID(), 5000)
		if err != nil || len(kept) != 1000 || kept[0].Line != 2 || kept[999].SKU != "BAD-999" || j.MoreErrors(len(kept)) != 4000 {
			t.Fatalf("kept %d errors (%v), more %d", len(kept), err, j.MoreErrors(len(kept)))
		}
	})
}

// TestJobRecordsFailure: a file that is not products, and an import whose
// context ends, finish as failed with the reason, never left running.
func TestJobRecordsFailure(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		job, err := importer.StartJob(ctx, db, catalog.ImportJob{FileName: "photo\x00.csv"}, importer.JobConfig{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := job.Run(ctx, strings.NewReader("\x00\x01\x02binary"), importer.Options{}); err == nil {
			t.Fatal("a binary file imported")
		}
		j, _ := catalog.GetImportJob(ctx, db, job.ID())
		if j.Status != catalog.ImportFailed || !strings.Contains(j.Error, "not a CSV or JSONL") || j.FileName != "photo.csv" || j.FinishedAt.IsZero() {
			t.Errorf("binary file job = %+v", j)
		}

		cctx, cancel := context.WithCancel(ctx)
		job, _ = importer.StartJob(ctx, db, catalog.ImportJob{FileName: "bad.csv"}, importer.JobConfig{})
		_, err = job.Run(cctx, strings.NewReader(badRows(3000, "x")), importer.Options{Progress: func(importer.Progress) { cancel() }})
		if err == nil {
			t.Fatal("a cancelled import finished")
		}
		j, _ = catalog.GetImportJob(ctx, db, job.ID())
		if j.Status != catalog.ImportFailed || !strings.Contains(j.Error, "canceled") || j.RowsRead == 0 || j.RowsRead >= 3000 {
			t.Errorf("cancelled job = %+v", j)
		}
	})
}
