package inbox

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
)

// MaxResume bounds the updates one start resumes; the rest wait for the
// next start (a backlog that large is an outage to look at, not a queue
// to replay at once).
const MaxResume = 10_000

// Keep is how long handled updates stay, to recognise redeliveries: a
// week, for every source. Telegram redelivers an unacknowledged update
// for up to a day and Slack retries for minutes, so a day would do for
// dedupe; the week the Slack inbox kept also covers a process that was
// down over a long weekend, and lets an operator look back at what came
// in, for a table of a few rows per turn.
const Keep = 7 * 24 * time.Hour

// Unhandled lists the updates recorded but not marked handled (those an
// earlier process acknowledged and did not finish), oldest first, at
// most MaxResume.
func (in *Inbox) Unhandled(ctx context.Context) ([]Update, error) {
	var rows []row
	err := in.db.NewSelect().Model(&rows).Where("source = ?", in.source).Where("handled_at IS NULL").
		Order("received_at", "key").Limit(MaxResume).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("inbox: list unhandled %s updates: %w", in.source, err)
	}
	return updatesOf(rows), nil
}

// errNoRows is what a RETURNING statement that touched no row may report.
var errNoRows = sql.ErrNoRows

// updatesOf is rows as Updates, oldest first.
func updatesOf(rows []row) []Update {
	slices.SortFunc(rows, func(a, b row) int {
		if c := a.ReceivedAt.Compare(b.ReceivedAt); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
	out := make([]Update, len(rows))
	for i, r := range rows {
		out[i] = Update{Key: r.Key, Chat: r.Chat, Kind: r.Kind, Payload: r.Payload, ReceivedAt: r.ReceivedAt}
	}
	return out
}

// Prune forgets the handled updates received before cutoff and returns
// how many; unhandled ones stay whatever their age.
func (in *Inbox) Prune(ctx context.Context, cutoff time.Time) (int64, error) {
	res, err := in.db.NewDelete().Model((*row)(nil)).Where("source = ?", in.source).
		Where("handled_at IS NOT NULL").Where("received_at < ?", cutoff.UTC()).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("inbox: prune handled %s updates: %w", in.source, err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// PruneOld forgets what was handled more than Keep ago. Adapters call it
// at start, before they resume; a failure is logged, as the prune is
// tried again the next day.
func (in *Inbox) PruneOld(ctx context.Context, log *slog.Logger) {
	if _, err := in.Prune(ctx, time.Now().Add(-Keep)); err != nil && ctx.Err() == nil {
		log.WarnContext(ctx, "inbox not pruned", "source", in.source, "err", err)
	}
}

// PruneDaily calls PruneOld once a day until ctx ends.
func (in *Inbox) PruneDaily(ctx context.Context, log *slog.Logger) {
	t := time.NewTicker(24 * time.Hour)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			in.PruneOld(ctx, log)
		}
	}
}
