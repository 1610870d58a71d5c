package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog/clip"
)

// Feed statuses: what the last run of a feed did.
const (
	FeedImported   = "imported"    // fetched and imported as a job
	FeedNotChanged = "not_changed" // the server answered 304 Not Modified
	FeedFailed     = "failed"      // fetch or import failed; LastError says why
)

// Feed schedule bounds, in hours.
const (
	DefaultFeedEveryHours = 6
	MaxFeedEveryHours     = 168
	maxFeedURL            = 2000
)

// Feed is a product feed fetched on a schedule (catalog/importer's
// Scheduler) and imported as an import job. Replicas share its schedule
// through NextRunAt and Claims (ClaimFeed).
type Feed struct {
	bun.BaseModel `bun:"table:import_feeds,alias:import_feed"`

	ID            int64        `bun:"id,pk,autoincrement"`
	URL           string       `bun:"url,notnull"`
	EveryHours    int          `bun:"every_hours,notnull"`
	Enabled       bool         `bun:"enabled,notnull"`
	ETag          string       `bun:"etag,notnull"`          // of the last imported body
	LastModified  string       `bun:"last_modified,notnull"` // of the last imported body
	Claims        int64        `bun:"claims,notnull"`        // runs claimed so far
	NextRunAt     time.Time    `bun:"next_run_at,notnull"`
	LastRunAt     bun.NullTime `bun:"last_run_at"`
	LastSuccessAt bun.NullTime `bun:"last_success_at"`
	LastStatus    string       `bun:"last_status,notnull"`
	LastError     string       `bun:"last_error,notnull"` // a sentence for the merchant
	LastNote      string       `bun:"last_note,notnull"`  // e.g. why nothing was archived
	LastJobID     *int64       `bun:"last_job_id"`
	LastArchived  int          `bun:"last_archived,notnull"`
	CreatedAt     time.Time    `bun:"created_at,notnull"`
}

// Every is the feed's period.
func (f Feed) Every() time.Duration { return time.Duration(f.EveryHours) * time.Hour }

// FeedInput is what the merchant sets of a feed.
type FeedInput struct {
	URL        string
	EveryHours int // 0 means DefaultFeedEveryHours
	Enabled    bool
}

// Validate checks and normalizes the input: an absolute http or https
// URL with a host, a period of 1 to 168 hours.
func (in *FeedInput) Validate() error {
	in.URL = strings.TrimSpace(in.URL)
	if in.EveryHours == 0 {
		in.EveryHours = DefaultFeedEveryHours
	}
	if err := CheckFeedURL(in.URL); err != nil {
		return err
	}
	if in.EveryHours < 1 || in.EveryHours > MaxFeedEveryHours {
		return fmt.Errorf("%w: fetch every 1 to %d hours, not %d", ErrInvalid, MaxFeedEveryHours, in.EveryHours)
	}
	return nil
}

// CheckFeedURL accepts an absolute http or https URL with a host.
func CheckFeedURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case raw == "":
		return fmt.Errorf("%w: the feed URL is missing", ErrInvalid)
	case len(raw) > maxFeedURL:
		return fmt.Errorf("%w: the feed URL is longer than %d characters", ErrInvalid, maxFeedURL)
	case err != nil:
		return fmt.Errorf("%w: %q is not a URL", ErrInvalid, clip.Shorten(raw, 80))
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%w: the feed URL must start with http:// or https://", ErrInvalid)
	case u.Host == "":
		return fmt.Errorf("%w: the feed URL has no host", ErrInvalid)
	}
	return nil
}

// CreateFeed adds a feed, due at now. A URL already listed is ErrConflict.
func CreateFeed(ctx context.Context, db bun.IDB, in FeedInput, now time.Time) (Feed, error) {
	if err := in.Validate(); err != nil {
		return Feed{}, fmt.Errorf("catalog: create feed: %w", err)
	}
	now = now.UTC()
	f := Feed{URL: in.URL, EveryHours: in.EveryHours, Enabled: in.Enabled, NextRunAt: now, CreatedAt: now}
	if _, err := db.NewInsert().Model(&f).Returning("id").Exec(ctx); err != nil {
		if isUniqueViolation(err) {
			return Feed{}, fmt.Errorf("catalog: create feed: %w: that feed URL is already listed", ErrConflict)
		}
		return Feed{}, fmt.Errorf("catalog: create feed: %w", err)
	}
	return f, nil
}

// UpdateFeed changes a feed's period and whether it runs. The next run
// moves to a period after the last run (or now, for a feed never run).
func UpdateFeed(ctx context.Context, db bun.IDB, id int64, every int, enabled bool, now time.Time) error {
	in := FeedInput{URL: "http://x", EveryHours: every, Enabled: enabled}
	if err := in.Validate(); err != nil {
		return fmt.Errorf("catalog: update feed %d: %w", id, err)
	}
	f, err := GetFeed(ctx, db, id)
	if err != nil {
		return err
	}
	next := now.UTC()
	if !f.LastRunAt.IsZero() {
		next = f.LastRunAt.Time.Add(time.Duration(in.EveryHours) * time.Hour).UTC()
	}
	res, err := db.NewUpdate().Model((*Feed)(nil)).
		Set("every_hours = ?", in.EveryHours).Set("enabled = ?", enabled).Set("next_run_at = ?", next).
		Where("id = ?", id).Exec(ctx)
	return expectOneRow(res, err, "feed %d", id)
}

// RunFeedNow makes a feed due at now.
func RunFeedNow(ctx context.Context, db bun.IDB, id int64, now time.Time) error {
	res, err := db.NewUpdate().Model((*Feed)(nil)).Set("next_run_at = ?", now.UTC()).Where("id = ?", id).Exec(ctx)
	return expectOneRow(res, err, "feed %d", id)
}

// DeleteFeed removes a feed; its import jobs stay.
func DeleteFeed(ctx context.Context, db bun.IDB, id int64) error {
	res, err := db.NewDelete().Model((*Feed)(nil)).Where("id = ?", id).Exec(ctx)
	return expectOneRow(res, err, "feed %d", id)
}

// GetFeed returns a feed by id.
func GetFeed(ctx context.Context, db bun.IDB, id int64) (Feed, error) {
	var f Feed
	err := db.NewSelect().Model(&f).Where("id = ?", id).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return f, fmt.Errorf("catalog: feed %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return f, fmt.Errorf("catalog: feed %d: %w", id, err)
	}
	return f, nil
}

// ListFeeds returns every feed, oldest first.
func ListFeeds(ctx context.Context, db bun.IDB) ([]Feed, error) {
	out := []Feed{}
	if err := db.NewSelect().Model(&out).Order("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: list feeds: %w", err)
	}
	return out, nil
}

// DueFeeds returns the enabled feeds whose next run is at or before now.
func DueFeeds(ctx context.Context, db bun.IDB, now time.Time) ([]Feed, error) {
	out := []Feed{}
	err := db.NewSelect().Model(&out).Where("enabled = ?", true).Where("next_run_at <= ?", now.UTC()).
		Order("next_run_at", "id").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: due feeds: %w", err)
	}
	return out, nil
}

// ClaimFeed takes the run of a due feed for this period: one conditional
// update moves its next run a period past now, on the claim count read
// with it, so of several replicas that read the same due feed exactly one
// claims it. The new schedule is stored before the fetch starts: a
// process that dies mid-fetch leaves the feed to its next period. It
// reports false when another replica claimed it first.
func ClaimFeed(ctx context.Context, db bun.IDB, f *Feed, now time.Time) (bool, error) {
	now = now.UTC()
	next := now.Add(f.Every())
	res, err := db.NewUpdate().Model((*Feed)(nil)).
		Set("claims = claims + 1").Set("next_run_at = ?", next).
		Where("id = ?", f.ID).Where("claims = ?", f.Claims).
		Where("enabled = ?", true).Where("next_run_at <= ?", now).
		Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("catalog: claim feed %d: %w", f.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	f.Claims, f.NextRunAt = f.Claims+1, next
	return true, nil
}

// FeedRun is the outcome of one run of a feed.
type FeedRun struct {
	At           time.Time
	Status       string // FeedImported, FeedNotChanged or FeedFailed
	Error        string // a sentence, for FeedFailed
	Note         string // e.g. why nothing was archived
	JobID        int64  // the import job, 0 for none
	Archived     int
	ETag         string // of an imported body
	LastModified string // of an imported body
}

// SaveFeedRun records the outcome of a run. A run that did not fail is a
// success; the validators (ETag, Last-Modified) of an imported body are
// kept for the next conditional fetch.
func SaveFeedRun(ctx context.Context, db bun.IDB, id int64, r FeedRun) error {
	at := r.At.UTC()
	q := db.NewUpdate().Model((*Feed)(nil)).
		Set("last_run_at = ?", at).Set("last_status = ?", r.Status).
		Set("last_error = ?", clip.Shorten(r.Error, 300)).Set("last_note = ?", clip.Shorten(r.Note, 300)).
		Set("last_archived = ?", r.Archived).Where("id = ?", id)
	if r.JobID != 0 {
		q = q.Set("last_job_id = ?", r.JobID)
	}
	if r.Status != FeedFailed {
		q = q.Set("last_success_at = ?", at)
	}
	if r.Status == FeedImported {
		q = q.Set("etag = ?", clip.Shorten(r.ETag, 500)).Set("last_modified = ?", clip.Shorten(r.LastModified, 100))
	}
	res, err := q.Exec(ctx)
	return expectOneRow(res, err, "feed %d", id)
}
