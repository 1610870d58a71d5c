package inbox

import (
	"context"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"
)

// backlog reports, at scrape time, the updates each source has recorded
// and not yet handled, and the age of the oldest of them. Read from the
// database, so every replica reports the one shared backlog (an alert
// takes max over replicas, not the sum).
type backlog struct {
	db      *bun.DB
	now     func() time.Time
	pending *prometheus.Desc
	oldest  *prometheus.Desc
	up      *prometheus.Desc
}

// NewBacklogCollector is the collector of shopbot_inbox_pending and
// shopbot_inbox_oldest_pending_seconds (by source: telegram, slack).
func NewBacklogCollector(db *bun.DB) prometheus.Collector {
	return &backlog{
		db:      db,
		now:     time.Now,
		pending: prometheus.NewDesc("shopbot_inbox_pending", "Chat updates recorded and not yet handled, by source (read from the database: the same on every replica).", []string{"source"}, nil),
		oldest:  prometheus.NewDesc("shopbot_inbox_oldest_pending_seconds", "Age of the oldest unhandled chat update, by source; 0 when none waits.", []string{"source"}, nil),
		up:      prometheus.NewDesc("shopbot_inbox_metrics_up", "1 when the inbox backlog could be read from the database.", nil, nil),
	}
}

func (b *backlog) Describe(ch chan<- *prometheus.Desc) {
	ch <- b.pending
	ch <- b.oldest
	ch <- b.up
}

func (b *backlog) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	rows, err := Backlog(ctx, b.db)
	if err != nil {
		ch <- prometheus.MustNewConstMetric(b.up, prometheus.GaugeValue, 0)
		return
	}
	now := b.now()
	for _, r := range rows {
		ch <- prometheus.MustNewConstMetric(b.pending, prometheus.GaugeValue, float64(r.Pending), r.Source)
		ch <- prometheus.MustNewConstMetric(b.oldest, prometheus.GaugeValue, max(0, now.Sub(r.Oldest).Seconds()), r.Source)
	}
	ch <- prometheus.MustNewConstMetric(b.up, prometheus.GaugeValue, 1)
}

// SourceBacklog is one source's unhandled updates.
type SourceBacklog struct {
	Source  string    `bun:"source"`
	Pending int       `bun:"pending"`
	Oldest  time.Time `bun:"oldest"`
}

// Backlog counts the unhandled updates of every source that has any.
func Backlog(ctx context.Context, db bun.IDB) ([]SourceBacklog, error) {
	var out []SourceBacklog
	err := db.NewSelect().Model((*row)(nil)).
		ColumnExpr("source, COUNT(*) AS pending, MIN(received_at) AS oldest").
		Where("handled_at IS NULL").Group("source").Order("source").Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("inbox: backlog: %w", err)
	}
	return out, nil
}
