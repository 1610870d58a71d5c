package toolkit

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"shopbot/engine/session"
	"shopbot/engine/view"
)

// A turn's side effects — cart changes, the order, the saved contact, a
// handoff — each commit in their own short transaction of the write store
// (Effects.Writes, writes.go) together with a row of the effects journal
// (EffectTx.ClaimEffect), keyed by the turn (conversation + DedupKey)
// and the effect (kind, canonical arguments, occurrence in the turn). A
// turn run again after a crash — a web retry with the same
// Idempotency-Key, an inbox resumed at start — finds the effects it
// already made and skips them, returning the state as it is, so the
// shopper still gets an answer and nothing happens twice. See doc.go for
// why not one transaction per turn.

// EffectWrite makes an effect through w, the writes of its transaction,
// and returns the notice it owes the merchant, if any.
type EffectWrite func(ctx context.Context, w Writes) (*view.Notice, error)

// Effects is where a turn's effects are written and whom their notices
// reach.
type Effects struct {
	// Writes opens each effect's transaction (nil: none can be made).
	Writes WriteStore
	// Notify tells someone outside the turn (an order placed, a handoff).
	// It must not block; nil drops notices.
	Notify func(n view.Notice)
	// Now is the clock of the journal rows (nil: time.Now).
	Now func() time.Time
}

// Apply makes the effect of key once per turn: in one transaction of the
// write store it claims the journal row and writes. applied is false when
// a previous run of the turn made it; its notice, if still undelivered,
// goes out now.
func (d Effects) Apply(ctx context.Context, s *session.Session, key string, write EffectWrite) (applied bool, err error) {
	fx := s.Effects()
	if fx.Stopped() {
		return false, session.ErrCrashed
	}
	tx, err := d.Writes.BeginEffect(ctx)
	if err != nil {
		return false, err
	}
	committed := false
	defer func() { // also when write panics (Toolbox.Call recovers it)
		if !committed {
			_ = tx.Rollback()
		}
	}()
	applied, notice, err := d.effectIn(ctx, tx, fx, key, write)
	if err != nil {
		return false, err
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("engine: commit effect %s: %w", key, err)
	}
	committed = true
	if applied {
		if err := fx.Step("effect"); err != nil {
			return true, err
		}
	}
	if notice != nil && fx.Key() == "" {
		d.notify(*notice) // no journal: nothing to claim it in
		return applied, nil
	}
	if notice != nil || !applied {
		d.DeliverPending(ctx, s, key)
	}
	return applied, nil
}

// effectIn is the body of an effect's transaction: it claims the journal
// row (none without a journal; a claim that finds the row skips the
// write), writes and keeps the notice owed with the row.
func (d Effects) effectIn(ctx context.Context, tx EffectTx, fx *session.Journal, key string, write EffectWrite) (applied bool, notice *view.Notice, err error) {
	if fx.Key() != "" {
		fresh, err := tx.ClaimEffect(ctx, fx.Key(), key, d.now())
		if err != nil || !fresh {
			return false, nil, err
		}
	}
	notice, err = write(ctx, tx)
	if err != nil {
		return false, nil, err
	}
	if notice != nil && fx.Key() != "" && d.Notify != nil {
		raw, err := json.Marshal(notice)
		if err != nil {
			return false, nil, err
		}
		if err := tx.SetEffectNotice(ctx, fx.Key(), key, string(raw)); err != nil {
			return false, nil, err
		}
	}
	return true, notice, fx.Step("effect-tx")
}

// DeliverPending delivers the effect's notice if no run of the turn has
// claimed it yet.
func (d Effects) DeliverPending(ctx context.Context, s *session.Session, key string) {
	fx := s.Effects()
	if d.Notify == nil || fx.Key() == "" {
		return
	}
	d.Deliver(context.WithoutCancel(ctx), fx.Key(), key)
}

// Deliver claims an effect's notice and sends it. A claimed notice is
// sent at most once; a failure to claim leaves it for a later run or the
// sweep (prune.go).
func (d Effects) Deliver(ctx context.Context, turnKey, effectKey string) {
	raw, err := d.Writes.TakeEffectNotice(ctx, turnKey, effectKey, d.now())
	if err != nil || raw == "" {
		return
	}
	var n view.Notice
	if json.Unmarshal([]byte(raw), &n) == nil {
		d.notify(n)
	}
}

func (d Effects) notify(n view.Notice) {
	if d.Notify != nil {
		d.Notify(n)
	}
}

func (d Effects) now() time.Time {
	if d.Now == nil {
		return time.Now()
	}
	return d.Now()
}
