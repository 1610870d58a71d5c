package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// JobConfig tunes how a Job records itself.
type JobConfig struct {
	// Now is the clock of heartbeats and throttling; default time.Now.
	Now func() time.Time
	// Every is the least time between two progress writes; default 250 ms.
	Every time.Duration
	// Keep is how many jobs the database keeps; starting a job prunes
	// older ones. Default 50.
	Keep int
}

// Job is an import recorded in the import_jobs table as it runs, so any
// replica can show its progress and result.
type Job struct {
	id    int64 // fixed, read from any goroutine
	db    *bun.DB
	cfg   JobConfig
	rec   catalog.ImportJob
	saved int       // kept errors already written
	last  time.Time // of the last progress write
}

// StartJob records a running job for the file described by rec (Kind,
// FileName, SizeBytes, StartedBy) and prunes old jobs. Run it next (or
// RunPages, for pages).
func StartJob(ctx context.Context, db *bun.DB, rec catalog.ImportJob, cfg JobConfig) (*Job, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Every <= 0 {
		cfg.Every = 250 * time.Millisecond
	}
	if cfg.Keep <= 0 {
		cfg.Keep = 50
	}
	rec.StartedAt = cfg.Now()
	rec.FileName = displayText(rec.FileName, 200)
	rec.StartedBy = displayText(rec.StartedBy, 100)
	if err := catalog.CreateImportJob(ctx, db, &rec); err != nil {
		return nil, err
	}
	if _, err := catalog.PruneImportJobs(ctx, db, cfg.Keep); err != nil {
		return nil, err
	}
	return &Job{id: rec.ID, db: db, cfg: cfg, rec: rec, last: cfg.Now()}, nil
}

// ID is the job's id in import_jobs. Unlike Run, it may be called from
// any goroutine.
func (j *Job) ID() int64 { return j.id }

// Run imports r as the job's kind says — products (Import) or reviews
// (ImportReviews) — writing the job's progress at most every cfg.Every
// (with the kept errors found so far) and its outcome at the end.
// opts.Progress, if set, is still called. The import's error comes first;
// a failed write of the outcome is returned too.
func (j *Job) Run(ctx context.Context, r io.Reader, opts Options) (Summary, error) {
	return j.run(ctx, opts, func(opts Options) (Summary, error) {
		switch j.rec.Kind {
		case catalog.ImportReviews:
			return ImportReviews(ctx, j.db, r, j.rec.FileName, opts)
		case catalog.ImportPages:
			return Summary{}, fmt.Errorf("importer: job %d: pages are imported from a directory (RunPages)", j.id)
		}
		return Import(ctx, j.db, r, j.rec.FileName, opts)
	})
}

// RunPages imports the *.md files of fsys as pages (ImportPages), recorded
// like Run.
func (j *Job) RunPages(ctx context.Context, fsys fs.FS, opts Options) (Summary, error) {
	return j.run(ctx, opts, func(opts Options) (Summary, error) {
		return ImportPages(ctx, j.db, fsys, opts)
	})
}

// run calls imp with opts whose Progress records the job.
func (j *Job) run(ctx context.Context, opts Options, imp func(Options) (Summary, error)) (Summary, error) {
	user := opts.Progress
	opts.Progress = func(p Progress) {
		if user != nil {
			user(p)
		}
		if now := j.cfg.Now(); now.Sub(j.last) >= j.cfg.Every {
			j.last = now
			// A failed progress write is not worth stopping the import
			// for: the next one or the final save carries the same data.
			_ = j.save(ctx, p, nil)
		}
	}
	sum, err := imp(opts)
	// The outcome is written even when ctx ended the import.
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	final := Progress{BytesRead: j.rec.BytesRead, Summary: sum}
	if err == nil {
		final.BytesRead = max(j.rec.SizeBytes, j.rec.BytesRead)
	}
	if serr := j.save(wctx, final, outcome(err)); serr != nil {
		return sum, errors.Join(err, serr)
	}
	return sum, err
}

// outcome is the stored end of a job: done, or failed with the reason.
func outcome(err error) *string {
	msg := ""
	if err != nil {
		msg = displayText(err.Error(), 300)
	}
	return &msg
}

// save writes p into the job row with the errors not written yet; with
// end set, the job is finished: done if *end is empty, else failed.
func (j *Job) save(ctx context.Context, p Progress, end *string) error {
	now := j.cfg.Now()
	rec := j.rec
	rec.Format = string(p.Summary.Format)
	rec.BytesRead, rec.RowsRead = p.BytesRead, int64(p.Summary.Rows)
	rec.Imported, rec.Updated, rec.Failed = int64(p.Summary.Imported), int64(p.Summary.Updated), int64(p.Summary.Failed)
	rec.HeartbeatAt = now
	if end != nil {
		rec.Status, rec.Error = catalog.ImportDone, *end
		if *end != "" {
			rec.Status = catalog.ImportFailed
		}
		rec.FinishedAt.Time = now
	}
	kept := p.Summary.Errors
	errs := make([]catalog.ImportJobError, 0, len(kept)-j.saved)
	for i := j.saved; i < len(kept); i++ {
		e := kept[i]
		errs = append(errs, catalog.ImportJobError{Seq: i + 1, Line: e.Line, SKU: e.SKU, Reason: e.Reason})
	}
	if err := catalog.SaveImportJob(ctx, j.db, &rec, errs); err != nil {
		return fmt.Errorf("importer: job %d: %w", j.id, err)
	}
	j.rec, j.saved = rec, len(kept)
	return nil
}
