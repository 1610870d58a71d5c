package admin_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestFeedsPage: a feed is added with its URL, period and switch; bad
// input (not http(s), a bad period, a URL already listed) shows the form
// again with a sentence and stores nothing; a failed run's sentence and
// a refusal to archive show from the database; the feed is edited,
// fetched now and removed.
func TestFeedsPage(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		p := newPanel(t, db)
		p.signIn()
		if code, page := p.get("/admin/import/feeds"); code != http.StatusOK || !strings.Contains(page, "No feeds yet.") ||
			!strings.Contains(page, `name="every_hours" min="1" max="168" value="6"`) {
			t.Fatalf("empty feeds page (%d):\n%s", code, page)
		}
		for _, tc := range []struct{ url, every, want string }{
			{"ftp://shop.example/feed.csv", "6", "The feed URL must start with http:// or https://."},
			{"https://shop.example/feed.csv", "0", "Fetch every: a whole number of hours, 1 to 168."},
			{"https://shop.example/feed.csv", "200", "Fetch every 1 to 168 hours, not 200."},
		} {
			code, _, page := p.post("/admin/import/feeds", url.Values{"url": {tc.url}, "every_hours": {tc.every}, "enabled": {"1"}})
			if code != http.StatusBadRequest || !strings.Contains(page, tc.want) || !strings.Contains(page, `value="`+tc.url+`"`) {
				t.Errorf("%s every %s: %d, want the form again with %q", tc.url, tc.every, code, tc.want)
			}
		}
		if feeds, _ := catalog.ListFeeds(ctx, db); len(feeds) != 0 {
			t.Fatalf("bad input stored %d feeds", len(feeds))
		}
		add := url.Values{"url": {"https://shop.example/feed.csv?token=t"}, "every_hours": {"6"}, "enabled": {"1"}}
		if code, loc, _ := p.post("/admin/import/feeds", add); code != http.StatusSeeOther || loc != "/admin/import/feeds" {
			t.Fatalf("add = %d → %s", code, loc)
		}
		if code, _, page := p.post("/admin/import/feeds", add); code != http.StatusBadRequest || !strings.Contains(page, "That feed URL is already listed.") {
			t.Errorf("the same URL again: %d", code)
		}
		feeds, _ := catalog.ListFeeds(ctx, db)
		if len(feeds) != 1 || feeds[0].EveryHours != 6 || !feeds[0].Enabled {
			t.Fatalf("feeds %+v", feeds)
		}
		id := feeds[0].ID
		if _, page := p.get("/admin/import/feeds"); !strings.Contains(page, "not run yet") || !strings.Contains(page, "https://shop.example/feed.csv?token=t") {
			t.Fatalf("feeds page lacks the new feed:\n%s", page)
		}

		// What another replica's scheduler recorded shows here.
		err := catalog.SaveFeedRun(ctx, db, id, catalog.FeedRun{At: p.clock.Now(), Status: catalog.FeedFailed, Error: "The feed server answered 404 Not Found."})
		if err != nil {
			t.Fatal(err)
		}
		if _, page := p.get("/admin/import/feeds"); !strings.Contains(page, "failed: The feed server answered 404 Not Found.") {
			t.Errorf("the failed run is not shown:\n%s", page)
		}
		note := "Nothing was archived: the feed lists 1 products and would archive 5 of the 6 active ones (more than 50%), which looks like a cut-off feed."
		if err := catalog.SaveFeedRun(ctx, db, id, catalog.FeedRun{At: p.clock.Now(), Status: catalog.FeedImported, Note: note}); err != nil {
			t.Fatal(err)
		}
		if _, page := p.get("/admin/import/feeds"); !strings.Contains(page, "imported") || !strings.Contains(page, note) {
			t.Errorf("the refused archive is not shown:\n%s", page)
		}

		path := fmt.Sprintf("/admin/import/feeds/%d", id)
		if code, _, _ := p.post(path, url.Values{"every_hours": {"12"}}); code != http.StatusSeeOther {
			t.Fatalf("save = %d", code)
		}
		if f, _ := catalog.GetFeed(ctx, db, id); f.EveryHours != 12 || f.Enabled {
			t.Errorf("after save: %+v", f)
		}
		if code, _, _ := p.post(path, url.Values{"every_hours": {"abc"}}); code != http.StatusBadRequest {
			t.Errorf("a bad period saved: %d", code)
		}
		if _, page := p.get("/admin/import/feeds"); !strings.Contains(page, "disabled") {
			t.Error("a disabled feed is not shown so")
		}
		if code, _, _ := p.post(path+"/run", nil); code != http.StatusSeeOther {
			t.Fatalf("run now = %d", code)
		}
		if f, _ := catalog.GetFeed(ctx, db, id); f.NextRunAt.After(p.clock.Now()) {
			t.Errorf("run now left the next run at %v", f.NextRunAt)
		}
		if code, _, _ := p.post(path+"/delete", nil); code != http.StatusSeeOther {
			t.Fatalf("delete = %d", code)
		}
		if code, _, _ := p.post(path+"/delete", nil); code != http.StatusNotFound {
			t.Errorf("deleting it again = %d", code)
		}
		if feeds, _ := catalog.ListFeeds(ctx, db); len(feeds) != 0 {
			t.Errorf("%d feeds after delete", len(feeds))
		}
	})
}
