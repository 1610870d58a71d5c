package slack

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/slack-go/slack"
)

// Resume forgets handled requests older than a week, then queues the work
// of those acknowledged but not handled before the process stopped (a
// crash, a deploy), oldest first; from then on it prunes once a day until
// ctx ends. bot/ calls it before serving Slack.
func (a *Adapter) Resume(ctx context.Context) error {
	a.prune(ctx)
	rows, err := a.inbox.unhandled(ctx)
	if err != nil {
		return err
	}
	for _, row := range rows {
		w, err := a.workOf(ctx, row)
		if err != nil || w.job == nil {
			// Stored by an older version or damaged: nothing to redo.
			a.log.WarnContext(ctx, "slack request not resumable; dropped", "key", row.Key, "kind", row.Kind, "err", err)
			if err := a.inbox.done(ctx, row.Key); err != nil {
				return err
			}
			continue
		}
		a.enqueue(ctx, row.Key, w)
	}
	if len(rows) > 0 {
		a.log.InfoContext(ctx, "slack requests resumed", "count", len(rows))
	}
	go a.pruneDaily(ctx)
	return nil
}

// prune forgets handled requests older than keepHandled.
func (a *Adapter) prune(ctx context.Context) {
	if err := a.inbox.prune(ctx, time.Now().Add(-keepHandled)); err != nil && ctx.Err() == nil {
		a.log.WarnContext(ctx, "slack inbox not pruned", "err", err)
	}
}

// pruneDaily prunes once a day until ctx ends.
func (a *Adapter) pruneDaily(ctx context.Context) {
	t := time.NewTicker(24 * time.Hour)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			a.prune(ctx)
		}
	}
}

// workOf turns a stored request back into its work.
func (a *Adapter) workOf(ctx context.Context, row inboxRow) (work, error) {
	switch row.Kind {
	case kindEvent:
		_, _, w, err := a.eventWork(ctx, []byte(row.Payload), false)
		return w, err
	case kindAction:
		_, w, err := a.interactionWork([]byte(row.Payload), false)
		return w, err
	case kindCommand:
		var cmd slack.SlashCommand
		if err := json.Unmarshal([]byte(row.Payload), &cmd); err != nil {
			return work{}, fmt.Errorf("%w: %v", errBadPayload, err)
		}
		_, w, err := a.commandWork(cmd)
		return w, err
	}
	return work{}, fmt.Errorf("%w: unknown kind %q", errBadPayload, row.Kind)
}
