package inbox_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/uptrace/bun"

	"shopbot/adapters/inbox"
	"shopbot/catalog/catalogtest"
)

// TestBacklog: updates recorded and not handled count per source; handled
// ones do not; the collector reports the same figures.
func TestBacklog(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		tg, sl := newInbox(t, db, "telegram"), newInbox(t, db, "slack")
		start := time.Now().Add(-time.Minute)
		for i, k := range []string{"a", "b", "c"} {
			u := inbox.Update{Key: k, Chat: "c", Kind: "update", Payload: "{}", ReceivedAt: start.Add(time.Duration(i) * time.Second)}
			if _, err := tg.Record(ctx, u, nil); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := sl.Record(ctx, inbox.Update{Key: "x", Chat: "c", Kind: "event", Payload: "{}", ReceivedAt: start}, nil); err != nil {
			t.Fatal(err)
		}
		if err := tg.Done(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		if err := sl.Done(ctx, "x"); err != nil {
			t.Fatal(err)
		}
		got, err := inbox.Backlog(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Source != "telegram" || got[0].Pending != 2 {
			t.Fatalf("backlog = %+v, want telegram: 2 pending", got)
		}
		if d := got[0].Oldest.Sub(start.Add(time.Second)); d < -time.Second || d > time.Second {
			t.Errorf("oldest = %v, want the second update's arrival %v", got[0].Oldest, start.Add(time.Second))
		}
		reg := prometheus.NewPedanticRegistry()
		reg.MustRegister(inbox.NewBacklogCollector(db))
		want := `# HELP shopbot_inbox_metrics_up 1 when the inbox backlog could be read from the database.
# TYPE shopbot_inbox_metrics_up gauge
shopbot_inbox_metrics_up 1
# HELP shopbot_inbox_pending Chat updates recorded and not yet handled, by source (read from the database: the same on every replica).
# TYPE shopbot_inbox_pending gauge
shopbot_inbox_pending{source="telegram"} 2
`
		if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "shopbot_inbox_pending", "shopbot_inbox_metrics_up"); err != nil {
			t.Error(err)
		}
		if n, err := testutil.GatherAndCount(reg, "shopbot_inbox_oldest_pending_seconds"); err != nil || n != 1 {
			t.Errorf("oldest pending series = %d (%v), want 1", n, err)
		}
	})
}

// A database that cannot be read reports up 0 and no figures, rather
// than failing the scrape.
func TestBacklogDatabaseDown(t *testing.T) {
	db := catalogtest.SQLite(t)
	db.Close()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(inbox.NewBacklogCollector(db))
	want := `# HELP shopbot_inbox_metrics_up 1 when the inbox backlog could be read from the database.
# TYPE shopbot_inbox_metrics_up gauge
shopbot_inbox_metrics_up 0
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want)); err != nil {
		t.Error(err)
	}
}
