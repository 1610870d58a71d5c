package importer

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// Feed defaults.
const (
	DefaultFeedTimeout  = 10 * time.Minute // one fetch, body included
	DefaultFeedMaxBytes = 256 << 20        // one feed body
	// DefaultArchiveShare is the most of the active products one feed run
	// may archive: a feed that would archive more is taken for cut off.
	DefaultArchiveShare = 0.5
)

// FeedConfig tunes a Scheduler.
type FeedConfig struct {
	// Client fetches feeds; default one with Timeout, http and https only.
	Client *http.Client
	// Timeout bounds one fetch, the body's download included.
	Timeout time.Duration
	// MaxBytes bounds a feed's body; a bigger feed fails (and archives
	// nothing).
	MaxBytes int64
	// ArchiveShare is the most of the active products a run may archive.
	ArchiveShare float64
	// DefaultCurrency is the currency of rows that name none; default USD.
	DefaultCurrency string
	// Now is the scheduler's clock (due times, job heartbeats).
	Now     func() time.Time
	Log     *slog.Logger
	Metrics *FeedMetrics // may be nil
}

// Scheduler runs the feeds of the import_feeds table when they are due.
// Several replicas may run one each on the same database: a feed is
// fetched by the one replica that claims its run (catalog.ClaimFeed), and
// its schedule lives in the database, so a restart keeps it.
type Scheduler struct {
	db  *bun.DB
	cfg FeedConfig
}

// NewScheduler returns a scheduler of db's feeds.
func NewScheduler(db *bun.DB, cfg FeedConfig) *Scheduler {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultFeedTimeout
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultFeedMaxBytes
	}
	if cfg.ArchiveShare <= 0 || cfg.ArchiveShare > 1 {
		cfg.ArchiveShare = DefaultArchiveShare
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Client == nil {
		cfg.Client = newFeedClient(cfg.Timeout)
	}
	return &Scheduler{db: db, cfg: cfg}
}

// Run runs the due feeds now and after every tick until ctx ends. The
// ticker is injected (time.NewTicker(time.Minute).C in production, a
// channel in tests).
func (s *Scheduler) Run(ctx context.Context, ticks <-chan time.Time) {
	for {
		if _, err := s.RunDue(ctx); err != nil && ctx.Err() == nil {
			s.cfg.Log.WarnContext(ctx, "feed scheduler", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-ticks:
		}
	}
}

// RunDue claims and runs every feed due at the scheduler's now, one after
// the other, and returns how many it ran. A feed another replica claimed
// first is left to it. A run's failure is recorded on the feed, not
// returned; only database errors are.
func (s *Scheduler) RunDue(ctx context.Context) (int, error) {
	now := s.cfg.Now()
	due, err := catalog.DueFeeds(ctx, s.db, now)
	if err != nil {
		return 0, err
	}
	ran := 0
	for i := range due {
		f := &due[i]
		ok, err := catalog.ClaimFeed(ctx, s.db, f, now)
		if err != nil {
			return ran, err
		}
		if !ok {
			continue
		}
		r := s.runFeed(ctx, *f)
		s.cfg.Metrics.fetched(r.Status)
		s.cfg.Log.InfoContext(ctx, "feed run", "feed", f.ID, "status", r.Status, "job", r.JobID,
			"archived", r.Archived, "error", r.Error, "note", r.Note)
		if err := catalog.SaveFeedRun(context.WithoutCancel(ctx), s.db, f.ID, r); err != nil {
			return ran + 1, err
		}
		ran++
	}
	feeds, err := catalog.ListFeeds(ctx, s.db)
	if err != nil {
		return ran, err
	}
	s.cfg.Metrics.observe(feeds)
	return ran, nil
}

// runFeed fetches one feed and imports it when it changed.
func (s *Scheduler) runFeed(ctx context.Context, f catalog.Feed) catalog.FeedRun {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	r := catalog.FeedRun{At: s.cfg.Now()}
	resp, err := s.fetch(ctx, f)
	if err != nil {
		r.Status, r.Error = catalog.FeedFailed, feedError(err, s.cfg)
		return r
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotModified {
		r.Status = catalog.FeedNotChanged
		return r
	}
	return s.importFeed(ctx, f, resp, r)
}

// importFeed imports a fetched body as a product import job through the
// format-detecting Import, then archives what a complete feed no longer
// names (archive.go).
func (s *Scheduler) importFeed(ctx context.Context, f catalog.Feed, resp *http.Response, r catalog.FeedRun) catalog.FeedRun {
	name := feedFileName(resp.Request.URL)
	job, err := StartJob(ctx, s.db, catalog.ImportJob{
		Kind: catalog.ImportProducts, FileName: name, SizeBytes: max(resp.ContentLength, 0),
		StartedBy: fmt.Sprintf("feed #%d", f.ID),
	}, JobConfig{Now: s.cfg.Now})
	if err != nil {
		r.Status, r.Error = catalog.FeedFailed, "The import could not be recorded; it will be tried at the next run."
		s.cfg.Log.ErrorContext(ctx, "feed job", "feed", f.ID, "err", err)
		return r
	}
	r.JobID = job.ID()
	seen := map[string]struct{}{}
	before := time.Now() // compared with updated_at, which the catalog stamps with the wall clock
	sum, err := job.Run(ctx, &limitedBody{r: resp.Body, left: s.cfg.MaxBytes}, Options{
		DefaultCurrency: s.cfg.DefaultCurrency,
		Seen:            func(sku string) { seen[sku] = struct{}{} },
	})
	if err != nil {
		r.Status, r.Error = catalog.FeedFailed, feedError(err, s.cfg)+" Nothing was archived."
		return r
	}
	r.Status = catalog.FeedImported
	r.ETag, r.LastModified = resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	r.Archived, r.Note, err = s.archive(ctx, sum, seen, before)
	if err != nil {
		r.Note = "The feed was imported, but archiving the products it no longer lists failed; it will be tried at the next run."
		r.ETag, r.LastModified = "", "" // fetch the whole feed again next time
		s.cfg.Log.ErrorContext(ctx, "feed archive", "feed", f.ID, "err", err)
	}
	return r
}
