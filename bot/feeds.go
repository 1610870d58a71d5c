package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/catalog/importer"
)

// feedsEvery is how often a replica looks for due product feeds (a feed
// runs every few hours; the minute is how late a run may start).
const feedsEvery = time.Minute

// startFeeds runs the feed scheduler until ctx ends; every replica runs
// one, and the claims in the database keep each feed's run to one
// replica. The returned function waits for it to stop.
func startFeeds(ctx context.Context, db *bun.DB, cfg *Config, reg prometheus.Registerer, log *slog.Logger) (wait func()) {
	s := importer.NewScheduler(db, importer.FeedConfig{
		DefaultCurrency: cfg.ShopCurrency, Log: log, Metrics: importer.NewFeedMetrics(reg),
	})
	t := time.NewTicker(feedsEvery)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer t.Stop()
		s.Run(ctx, t.C)
	}()
	return func() { <-done }
}
