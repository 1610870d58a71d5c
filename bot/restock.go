package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/uptrace/bun"

	"shopbot/engine/restock"
)

// restockEvery is how often a replica looks for due back-in-stock alerts.
const restockEvery = 15 * time.Second

// startRestock runs the back-in-stock worker until ctx ends; every
// replica runs one, and the claims in the database keep each alert to one
// sender. The returned function waits for it to stop.
func startRestock(ctx context.Context, db *bun.DB, notify restock.Notifier, log *slog.Logger) (wait func()) {
	w := &restock.Worker{DB: db, Notifier: notify, Log: log}
	t := time.NewTicker(restockEvery)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer t.Stop()
		w.Run(ctx, t.C)
	}()
	return func() { <-done }
}
