package slack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/slack-go/slack"

	"shopbot/adapters/inbox"
)

// Kinds of requests in the inbox: what the payload is, and so how it
// becomes work again when resumed.
const (
	kindEvent   = "event"   // an Events API envelope
	kindAction  = "action"  // an interaction payload
	kindCommand = "command" // a slash command, as slack.SlashCommand JSON
)

// record stores a request in the inbox and queues its work, unless it was
// recorded before (a retry); an error means nothing was recorded. The
// inbox's writer queues the work once the request is stored, also when
// the request has given up waiting.
func (a *Adapter) record(ctx context.Context, key, kind string, payload []byte, w work) error {
	if !inbox.StorableKey(key) {
		return fmt.Errorf("%w: id over %d characters or with control characters", errBadPayload, inbox.MaxKeyRunes)
	}
	u := inbox.Update{Key: key, Chat: w.queue, Kind: kind, Payload: string(payload), ReceivedAt: time.Now()}
	first, err := a.inbox.Record(ctx, u, func() { a.enqueue(ctx, key, w) })
	if err != nil {
		return err
	}
	a.received(u.ReceivedAt)
	if !first {
		a.metrics.duplicates.Inc()
	}
	return nil
}

// enqueue queues w's job under its conversation; once the job has run to
// its end, the request is marked handled. One cut short by shutdown, or
// refused by a full queue, stays unhandled and runs at the next start
// (the engine de-duplicates a turn by its key, so a resumed turn places
// no second order).
func (a *Adapter) enqueue(ctx context.Context, key string, w work) {
	err := a.queue.Push(w.queue, inbox.Job{ID: key, Run: func(ctx context.Context, _ *inbox.Slot) {
		w.job(ctx)
		if ctx.Err() != nil {
			return
		}
		if err := a.inbox.Done(ctx, key); err != nil {
			a.log.WarnContext(ctx, "slack request not marked handled; it runs again at the next start", "key", key, "err", err)
		}
	}})
	if err != nil && !errors.Is(err, inbox.ErrQueued) {
		a.metrics.queueDropped.Inc()
		a.log.WarnContext(ctx, "slack work postponed to the next start", "key", w.queue, "err", err)
	}
}

// Resume forgets handled requests older than a week, then queues the work
// of those acknowledged but not handled before the process stopped (a
// crash, a deploy), oldest first; from then on it prunes once a day until
// ctx ends. bot/ calls it before serving Slack.
func (a *Adapter) Resume(ctx context.Context) error {
	a.inbox.PruneOld(ctx, a.log)
	rows, err := a.inbox.Unhandled(ctx)
	if err != nil {
		return err
	}
	for _, row := range rows {
		w, err := a.workOf(ctx, row)
		if err != nil || w.job == nil {
			// Stored by an older version or damaged: nothing to redo.
			a.log.WarnContext(ctx, "slack request not resumable; dropped", "key", row.Key, "kind", row.Kind, "err", err)
			if err := a.inbox.Done(ctx, row.Key); err != nil {
				return err
			}
			continue
		}
		a.enqueue(ctx, row.Key, w)
	}
	if len(rows) > 0 {
		a.log.InfoContext(ctx, "slack requests resumed", "count", len(rows))
	}
	go a.inbox.PruneDaily(ctx, a.log)
	return nil
}

// workOf turns a stored request back into its work.
func (a *Adapter) workOf(ctx context.Context, row inbox.Update) (work, error) {
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

// cartMessage is the ts of the thread's cart message, "" when it has none
// (or it cannot be read: a new message is then posted).
func (a *Adapter) cartMessage(ctx context.Context, channel, thread string) string {
	ts, err := a.inbox.CartMessage(ctx, channel, thread)
	if err != nil {
		a.log.WarnContext(ctx, "slack cart message not read", "channel_id", channel, "err", err)
	}
	return ts
}

// rememberCart stores ts as the thread's cart message; a stop does not
// cancel it, as the message is posted already.
func (a *Adapter) rememberCart(ctx context.Context, channel, thread, ts string) {
	ctx = context.WithoutCancel(ctx)
	if err := a.inbox.RememberCart(ctx, channel, thread, ts); err != nil {
		a.log.WarnContext(ctx, "slack cart message not stored", "channel_id", channel, "err", err)
	}
}
