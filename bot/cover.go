package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/uptrace/bun"

	"shopbot/adapters/inbox"
	"shopbot/adapters/web"
	"shopbot/catalog"
)

// Replicas cover for each other: a chat update whose replica died is
// taken over by another once its lease runs out (inbox.Lease, set from
// INBOX_LEASE, INBOX_LEASE_RENEW, INBOX_SWEEP), and a notice for a web
// shopper waits in the database for whichever replica the shopper
// reaches (webNotices, WEB_NOTICE_TTL).

// coverSettings are the parsed lease and notice settings.
type coverSettings struct {
	lease     inbox.Lease
	noticeTTL time.Duration
}

func (c *Config) parseCover() error {
	durations := []struct {
		name, v, eg string
		lo, hi      time.Duration
		dst         *time.Duration
	}{
		{"INBOX_LEASE", c.InboxLease, "25s", 500 * time.Millisecond, time.Hour, &c.cover.lease.For},
		{"INBOX_LEASE_RENEW", c.InboxRenew, "5s", 100 * time.Millisecond, time.Hour, &c.cover.lease.Renew},
		{"INBOX_SWEEP", c.InboxSweep, "5s", 100 * time.Millisecond, time.Hour, &c.cover.lease.Sweep},
		{"WEB_NOTICE_TTL", c.WebNoticeTTL, "24h", time.Minute, 30 * 24 * time.Hour, &c.cover.noticeTTL},
	}
	for _, d := range durations {
		v, err := time.ParseDuration(d.v)
		if err != nil || v < d.lo || v > d.hi {
			return usagef("%s must be a duration from %s to %s, such as %s (got %q)", d.name, d.lo, d.hi, d.eg, d.v)
		}
		*d.dst = v
	}
	if c.cover.lease.Renew >= c.cover.lease.For {
		return usagef("INBOX_LEASE_RENEW (%s) must be shorter than INBOX_LEASE (%s); a fifth of it leaves room for missed renewals", c.InboxRenew, c.InboxLease)
	}
	return nil
}

// webNotices keeps the web chat's notices in the database.
type webNotices struct{ box catalog.NoticeBox }

var _ web.NoticeStore = webNotices{}

func newWebNotices(db bun.IDB, ttl time.Duration) webNotices {
	return webNotices{box: catalog.NoticeBox{DB: db, TTL: ttl}}
}

func (n webNotices) Put(ctx context.Context, session string, payload []byte) error {
	return n.box.Put(ctx, "web", session, payload)
}

func (n webNotices) Take(ctx context.Context, session string) ([]json.RawMessage, error) {
	return n.box.Take(ctx, "web", session)
}

// noticePruneEvery is how often expired notices are deleted (they are
// never delivered once expired, pruned or not).
const noticePruneEvery = time.Hour

// pruneNotices deletes expired notices every noticePruneEvery until ctx
// ends; the returned func waits for it to stop.
func (n webNotices) pruneNotices(ctx context.Context, log *slog.Logger) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(noticePruneEvery)
		defer t.Stop()
		for {
			if k, err := n.box.Prune(ctx); err != nil && ctx.Err() == nil {
				log.WarnContext(ctx, "expired web notices not pruned", "err", err)
			} else if k > 0 {
				log.InfoContext(ctx, "expired web notices pruned", "count", k)
			}
			events := catalog.ChatEvents{DB: n.box.DB}
			if k, err := events.Prune(ctx, webEventsAge); err != nil && ctx.Err() == nil {
				log.WarnContext(ctx, "old web chat events not pruned", "err", err)
			} else if k > 0 {
				log.InfoContext(ctx, "old web chat events pruned", "count", k)
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return func() { <-done }
}
