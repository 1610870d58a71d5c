package telegram

import (
	"context"
	"sort"
	"time"

	"github.com/go-telegram/bot/models"

	"shopbot/adapters/inbox"
)

// Replicas cover for each other (inbox.Lease): each update is claimed by
// the replica that recorded it, renewed while its turn waits and runs,
// and claimed again when the turn starts (handle); an update whose
// replica died is taken over by another once its lease runs out
// (takeOver). A replica that stops releases what it did not finish.

// releaseWithin bounds the release of this replica's claims at stop.
const releaseWithin = 5 * time.Second

// resume queues, before any new update is taken, the updates recorded but
// not handled that no replica holds: those of this process before a
// restart (released when it stopped) and of replicas that died.
func (a *Adapter) resume(ctx context.Context) error {
	rows, err := a.inbox.ClaimOrphans(ctx, inbox.MaxResume)
	if err != nil {
		return err
	}
	a.queueAll(ctx, rows)
	if len(rows) > 0 {
		a.log.InfoContext(ctx, "telegram updates resumed", "count", len(rows))
	}
	return nil
}

// takeOver queues the updates a sweep claimed.
func (a *Adapter) takeOver(rows []inbox.Update) { a.queueAll(a.ctx, rows) }

// queueAll queues claimed updates in update_id order (the inbox lists
// them by arrival, and webhook deliveries arrive out of order). An
// unreadable one is marked handled: it would fail again anywhere.
func (a *Adapter) queueAll(ctx context.Context, rows []inbox.Update) {
	type claimed struct {
		u        *models.Update
		received time.Time
	}
	var todo []claimed
	for _, r := range rows {
		u, err := decodeUpdate([]byte(r.Payload))
		if err != nil || updateKey(u) != r.Key {
			a.log.ErrorContext(ctx, "telegram: stored update unreadable, dropped", "key", r.Key, "err", err)
			_ = a.inbox.Done(ctx, r.Key)
			continue
		}
		todo = append(todo, claimed{u, r.ReceivedAt})
	}
	sort.Slice(todo, func(i, j int) bool { return todo[i].u.ID < todo[j].u.ID })
	for _, c := range todo {
		a.dispatch(c.u, c.received)
	}
}

// claim takes the update for this replica as its turn starts; false: it
// is handled, or another replica has taken it over, and must not run.
func (a *Adapter) claim(ctx context.Context, u *models.Update) bool {
	ok, err := a.inbox.Claim(ctx, updateKey(u))
	if err != nil {
		a.log.ErrorContext(ctx, "telegram update not claimed; released for a later sweep", "update_id", u.ID, "err", err)
		a.releaseOne(ctx, u)
		return false
	}
	return ok
}

// releaseOne gives the update up, so that a sweep (here or elsewhere)
// takes it again.
func (a *Adapter) releaseOne(ctx context.Context, u *models.Update) {
	if err := a.inbox.Release(context.WithoutCancel(ctx), updateKey(u)); err != nil {
		a.log.WarnContext(ctx, "telegram update not released; it runs once its lease runs out", "update_id", u.ID, "err", err)
	}
}

// release gives up every claim this replica still holds, as it stops.
func (a *Adapter) release() {
	ctx, cancel := context.WithTimeout(context.Background(), releaseWithin)
	defer cancel()
	if err := a.inbox.ReleaseAll(ctx); err != nil {
		a.log.WarnContext(ctx, "telegram updates not released; other replicas take them once their leases run out", "err", err)
	}
}
