package importer_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/importer"
)

// feedServer serves a product feed (Shopbot's CSV; any format the
// importer detects works the same) with an ETag, answering 304 to a
// request that names the current one.
type feedServer struct {
	*httptest.Server
	mu       sync.Mutex
	body     string
	etag     string
	status   int           // when set, answered instead of the feed
	cut      bool          // promise more bytes than sent (a cut-off download)
	hold     chan struct{} // when set, a request waits for it to close
	started  chan struct{} // when set, told of each request
	requests int
	sentTags []string // If-None-Match of each request
}

func newFeedServer(t *testing.T) *feedServer {
	fs := &feedServer{}
	fs.Server = httptest.NewServer(http.HandlerFunc(fs.serve))
	t.Cleanup(fs.Close)
	return fs
}

func (fs *feedServer) serve(w http.ResponseWriter, r *http.Request) {
	fs.mu.Lock()
	fs.requests++
	fs.sentTags = append(fs.sentTags, r.Header.Get("If-None-Match"))
	body, etag, status, cut, hold, started := fs.body, fs.etag, fs.status, fs.cut, fs.hold, fs.started
	fs.mu.Unlock()
	if started != nil {
		started <- struct{}{}
	}
	if hold != nil {
		<-hold
	}
	switch {
	case status != 0:
		http.Error(w, "gone", status)
	case etag != "" && r.Header.Get("If-None-Match") == etag:
		w.WriteHeader(http.StatusNotModified)
	case cut:
		w.Header().Set("Content-Length", fmt.Sprint(len(body)+1000))
		w.Write([]byte(body))
	default:
		w.Header().Set("ETag", etag)
		w.Write([]byte(body))
	}
}

func (fs *feedServer) set(body, etag string) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.body, fs.etag = body, etag
}

func (fs *feedServer) setStatus(code int, cut bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.status, fs.cut = code, cut
}

func (fs *feedServer) tags() []string {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return append([]string(nil), fs.sentTags...)
}

func (fs *feedServer) count() int {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.requests
}

// feedCSV is a feed of the given SKUs.
func feedCSV(skus ...string) string {
	var b strings.Builder
	b.WriteString("sku,title,price,stock\n")
	for _, s := range skus {
		fmt.Fprintf(&b, "%s,Product %s,9.50,4\n", s, s)
	}
	return b.String()
}

// feedClock is a clock the test moves; the scheduler may read it from
// another goroutine.
type feedClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *feedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *feedClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

func (c *feedClock) Add(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	return c.t
}

// feedRig is a scheduler with an injected clock over db, and its metrics.
type feedRig struct {
	sched *importer.Scheduler
	reg   *prometheus.Registry
}

func newFeedRig(db *bun.DB, clock *feedClock) feedRig {
	reg := prometheus.NewRegistry()
	return feedRig{reg: reg, sched: importer.NewScheduler(db, importer.FeedConfig{
		Now: clock.Now, Metrics: importer.NewFeedMetrics(reg), MaxBytes: 64 << 10, Timeout: 10 * time.Second,
	})}
}

func (r feedRig) fetches(result string) float64 {
	n, err := testutil.GatherAndCount(r.reg, "shopbot_feed_fetches_total")
	if err != nil || n != 3 {
		panic(fmt.Sprintf("fetch series: %d, %v", n, err))
	}
	mfs, _ := r.reg.Gather()
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			if mf.GetName() == "shopbot_feed_fetches_total" && m.GetLabel()[0].GetValue() == result {
				return m.GetCounter().GetValue()
			}
		}
	}
	return -1
}

func runDue(t *testing.T, s *importer.Scheduler, want int) {
	t.Helper()
	if n, err := s.RunDue(context.Background()); err != nil || n != want {
		t.Fatalf("RunDue ran %d, %v; want %d", n, err, want)
	}
}

func getFeed(t *testing.T, db bun.IDB, id int64) catalog.Feed {
	t.Helper()
	f, err := catalog.GetFeed(context.Background(), db, id)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func activeSKUs(t *testing.T, db bun.IDB) string {
	t.Helper()
	var skus []string
	err := db.NewSelect().Model((*catalog.Product)(nil)).Column("sku").Where("active = ?", true).Order("sku").
		Scan(context.Background(), &skus)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(skus, ",")
}

func newFeed(t *testing.T, db bun.IDB, url string, now time.Time) catalog.Feed {
	t.Helper()
	f, err := catalog.CreateFeed(context.Background(), db, catalog.FeedInput{URL: url, Enabled: true}, now)
	if err != nil || f.EveryHours != catalog.DefaultFeedEveryHours {
		t.Fatalf("create feed: %+v, %v", f, err)
	}
	return f
}

var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// TestFeedImportsThenNotModified: a due feed is fetched and imported as a
// job (200); it is not fetched again before its period; after it, the
// conditional GET names the ETag, the server answers 304 and nothing is
// imported, recorded as not changed; the schedule and validators live in
// the database, so a new scheduler (a restart) keeps them.
func TestFeedImportsThenNotModified(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		srv := newFeedServer(t)
		srv.set(feedCSV("F-1", "F-2", "F-3"), `"v1"`)
		clock := &feedClock{t: t0}
		rig := newFeedRig(db, clock)
		f := newFeed(t, db, srv.URL+"/products.csv?token=secret", clock.Now())

		runDue(t, rig.sched, 1)
		got := getFeed(t, db, f.ID)
		if got.LastStatus != catalog.FeedImported || got.ETag != `"v1"` || got.LastError != "" || got.LastJobID == nil ||
			!got.NextRunAt.Equal(t0.Add(6*time.Hour)) || !got.LastSuccessAt.Equal(t0) {
			t.Fatalf("after the first run: %+v", got)
		}
		job, err := catalog.GetImportJob(ctx, db, *got.LastJobID)
		if err != nil || job.Status != catalog.ImportDone || job.Imported != 3 || job.Kind != catalog.ImportProducts ||
			job.StartedBy != fmt.Sprintf("feed #%d", f.ID) || strings.Contains(job.FileName, "secret") {
			t.Fatalf("job %+v, %v", job, err)
		}
		if s := activeSKUs(t, db); s != "F-1,F-2,F-3" {
			t.Fatalf("active %s", s)
		}

		clock.Set(t0.Add(5 * time.Hour))
		runDue(t, rig.sched, 0)
		restarted := newFeedRig(db, clock)
		clock.Set(t0.Add(6 * time.Hour))
		runDue(t, restarted.sched, 1)
		got = getFeed(t, db, f.ID)
		if srv.count() != 2 || srv.tags()[1] != `"v1"` || got.LastStatus != catalog.FeedNotChanged ||
			*got.LastJobID != job.ID || !got.LastSuccessAt.Equal(clock.Now()) {
			t.Fatalf("second run: %d requests, tags %q, feed %+v", srv.count(), srv.tags(), got)
		}
		if jobs, _ := catalog.ListImportJobs(ctx, db, 10); len(jobs) != 1 {
			t.Fatalf("%d jobs after a 304, want 1", len(jobs))
		}
		if rig.fetches(catalog.FeedImported) != 1 || restarted.fetches(catalog.FeedNotChanged) != 1 || rig.fetches(catalog.FeedFailed) != 0 {
			t.Error("fetch counters wrong")
		}
		want := fmt.Sprintf("\n# HELP shopbot_feed_last_success_timestamp_seconds When each enabled feed last ran without failing (0 for never), read from the database so every replica reports it.\n"+
			"# TYPE shopbot_feed_last_success_timestamp_seconds gauge\nshopbot_feed_last_success_timestamp_seconds{feed=\"%d\"} %d\n", f.ID, clock.Now().Unix())
		if err := testutil.GatherAndCompare(restarted.reg, strings.NewReader(want), "shopbot_feed_last_success_timestamp_seconds"); err != nil {
			t.Error(err)
		}
	})
}

// TestFeedArchivesAbsentProducts: a product a complete feed no longer
// lists is archived, not deleted, and comes back when the feed lists it
// again.
func TestFeedArchivesAbsentProducts(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		srv := newFeedServer(t)
		srv.set(feedCSV("A-1", "A-2", "A-3", "A-4"), `"v1"`)
		clock := &feedClock{t: t0}
		rig := newFeedRig(db, clock)
		f := newFeed(t, db, srv.URL+"/feed", clock.Now())
		runDue(t, rig.sched, 1)

		srv.set(feedCSV("A-1", "A-2", "A-3"), `"v2"`)
		clock.Add(6 * time.Hour)
		runDue(t, rig.sched, 1)
		got := getFeed(t, db, f.ID)
		if got.LastStatus != catalog.FeedImported || got.LastArchived != 1 || got.LastNote != "" || activeSKUs(t, db) != "A-1,A-2,A-3" {
			t.Fatalf("feed %+v, active %s", got, activeSKUs(t, db))
		}
		p, err := catalog.GetProduct(ctx, db, "A-4")
		if err != nil || p.Active {
			t.Fatalf("A-4 = %+v, %v: want archived, kept", p, err)
		}

		srv.set(feedCSV("A-1", "A-2", "A-3", "A-4"), `"v3"`)
		clock.Add(6 * time.Hour)
		runDue(t, rig.sched, 1)
		if s := activeSKUs(t, db); s != "A-1,A-2,A-3,A-4" || getFeed(t, db, f.ID).LastArchived != 0 {
			t.Fatalf("after the feed lists A-4 again: active %s", s)
		}
	})
}

// TestFeedIncompleteArchivesNothing: a download cut off mid-body fails
// and archives nothing (and keeps no ETag, so the next run fetches it
// whole); a feed that would archive more than half the shop (cut at a row
// boundary) imports but archives nothing, saying why; so does a feed with
// a failed row.
func TestFeedIncompleteArchivesNothing(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		srv := newFeedServer(t)
		all := []string{"T-1", "T-2", "T-3", "T-4", "T-5", "T-6"}
		srv.set(feedCSV(all...), `"v1"`)
		clock := &feedClock{t: t0}
		rig := newFeedRig(db, clock)
		f := newFeed(t, db, srv.URL+"/feed.csv", clock.Now())
		runDue(t, rig.sched, 1)

		next := func() catalog.Feed {
			t.Helper()
			clock.Add(6 * time.Hour)
			runDue(t, rig.sched, 1)
			return getFeed(t, db, f.ID)
		}
		srv.set(feedCSV("T-1"), `"v2"`)
		srv.setStatus(0, true)
		if got := next(); got.LastStatus != catalog.FeedFailed || got.LastError != "The feed's download was cut off. Nothing was archived." ||
			got.ETag != `"v1"` || activeSKUs(t, db) != strings.Join(all, ",") {
			t.Fatalf("cut-off download: %+v, active %s", got, activeSKUs(t, db))
		}
		srv.setStatus(0, false)
		got := next()
		if got.LastStatus != catalog.FeedImported || got.LastArchived != 0 || activeSKUs(t, db) != strings.Join(all, ",") ||
			got.LastNote != "Nothing was archived: the feed lists 1 products and would archive 5 of the 6 active ones (more than 50%), which looks like a cut-off feed. Check the feed, or archive them in the panel." {
			t.Fatalf("short feed: %+v, active %s", got, activeSKUs(t, db))
		}
		srv.set(feedCSV("T-1", "T-2", "T-3", "T-4")+"T-5,Broken,not a price,1\n", `"v3"`)
		if got := next(); got.LastStatus != catalog.FeedImported || got.LastArchived != 0 || activeSKUs(t, db) != strings.Join(all, ",") ||
			got.LastNote != "Nothing was archived: 1 rows of the feed failed, so it may not list every product." {
			t.Fatalf("feed with a bad row: %+v", got)
		}
		if rig.fetches(catalog.FeedFailed) != 1 || rig.fetches(catalog.FeedImported) != 3 {
			t.Error("fetch counters wrong")
		}
	})
}

// TestFeedGoneShowsError: a feed that answers 404, or whose server is
// gone, fails with a sentence, archives nothing and keeps its schedule;
// a body over the limit fails too; a feed URL that is not http(s) is
// refused and stores nothing.
func TestFeedGoneShowsError(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		srv := newFeedServer(t)
		srv.set(feedCSV("G-1", "G-2"), `"v1"`)
		clock := &feedClock{t: t0}
		rig := newFeedRig(db, clock)
		f := newFeed(t, db, srv.URL+"/feed.csv", clock.Now())
		runDue(t, rig.sched, 1)

		check := func(wantErr string) {
			t.Helper()
			clock.Add(6 * time.Hour)
			runDue(t, rig.sched, 1)
			got := getFeed(t, db, f.ID)
			if got.LastStatus != catalog.FeedFailed || got.LastError != wantErr || !got.LastSuccessAt.Equal(t0) ||
				!got.NextRunAt.Equal(clock.Now().Add(6*time.Hour)) || activeSKUs(t, db) != "G-1,G-2" {
				t.Fatalf("want %q: feed %+v, active %s", wantErr, got, activeSKUs(t, db))
			}
		}
		srv.setStatus(http.StatusNotFound, false)
		check("The feed server answered 404 Not Found.")
		srv.setStatus(0, false)
		srv.set(feedCSV("G-1", "G-2")+strings.Repeat("G-9,Filler,1.00,1\n", 5000), `"big"`)
		check("The feed is larger than 64 KiB. Nothing was archived.")
		srv.Close()
		check("The feed server refused the connection.")
		if rig.fetches(catalog.FeedFailed) != 3 {
			t.Errorf("%v failed fetches counted", rig.fetches(catalog.FeedFailed))
		}

		for _, bad := range []string{"ftp://example.com/feed.csv", "/feed.csv", "http://", ""} {
			if _, err := catalog.CreateFeed(ctx, db, catalog.FeedInput{URL: bad, Enabled: true}, t0); !errors.Is(err, catalog.ErrInvalid) {
				t.Errorf("%q: %v, want ErrInvalid", bad, err)
			}
		}
		if _, err := catalog.CreateFeed(ctx, db, catalog.FeedInput{URL: srv.URL + "/x", EveryHours: 200}, t0); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("every 200 hours: %v", err)
		}
		if _, err := catalog.CreateFeed(ctx, db, catalog.FeedInput{URL: f.URL}, t0); !errors.Is(err, catalog.ErrConflict) {
			t.Errorf("the same URL twice: %v", err)
		}
		if feeds, _ := catalog.ListFeeds(ctx, db); len(feeds) != 1 {
			t.Errorf("%d feeds stored, want 1", len(feeds))
		}
	})
}

// TestFeedTwoSchedulersFetchOnce: two replicas' schedulers run the same
// due feed at once; one claims it and fetches, the other leaves it.
func TestFeedTwoSchedulersFetchOnce(t *testing.T) {
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		srv := newFeedServer(t)
		srv.set(feedCSV("R-1"), `"v1"`)
		srv.hold, srv.started = make(chan struct{}), make(chan struct{}, 2)
		clock := &feedClock{t: t0}
		f := newFeed(t, dbs[0], srv.URL+"/feed.csv", clock.Now())
		ran := make(chan int, 2)
		for _, db := range dbs {
			s := newFeedRig(db, clock).sched
			go func() {
				n, err := s.RunDue(context.Background())
				if err != nil {
					t.Error(err)
				}
				ran <- n
			}()
		}
		<-srv.started   // one replica is fetching, holding its claim
		first := <-ran  // so the other has finished, claiming nothing
		close(srv.hold) // let the fetch finish
		second := <-ran
		if first != 0 || second != 1 || srv.count() != 1 {
			t.Fatalf("runs %d and %d, %d fetches; want 0, 1 and 1", first, second, srv.count())
		}
		if got := getFeed(t, dbs[1], f.ID); got.LastStatus != catalog.FeedImported || got.Claims != 1 {
			t.Fatalf("feed %+v", got)
		}
	})
}

// TestFeedSchedulerTicks: Run fetches at start and on each tick of the
// injected ticker, when the feed is due by the injected clock.
func TestFeedSchedulerTicks(t *testing.T) {
	db := catalogtest.SQLite(t)
	srv := newFeedServer(t)
	srv.set(feedCSV("K-1"), `"v1"`)
	clock := &feedClock{t: t0}
	f := newFeed(t, db, srv.URL+"/feed.csv", clock.Now())
	ticks := make(chan time.Time)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { newFeedRig(db, clock).sched.Run(ctx, ticks); close(done) }()
	ticks <- t0 // received once the first run is over
	if srv.count() != 1 {
		t.Fatalf("%d fetches at start", srv.count())
	}
	srv.set(feedCSV("K-1", "K-2"), `"v2"`)
	clock.Set(t0.Add(6 * time.Hour))
	ticks <- t0 // the run of this tick may or may not see the new time,
	ticks <- t0 // but this one does, and both are over
	cancel()
	<-done
	if srv.count() != 2 || activeSKUs(t, db) != "K-1,K-2" || getFeed(t, db, f.ID).LastStatus != catalog.FeedImported {
		t.Fatalf("%d fetches, active %s", srv.count(), activeSKUs(t, db))
	}
}
