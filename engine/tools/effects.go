package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"shopbot/engine/view"
)

// A turn's side effects — cart changes, the order, the saved contact, a
// handoff — each commit in their own short transaction of the write store
// (Deps.Writes, writes.go) together with a row of the effects journal
// (EffectTx.ClaimEffect), keyed by the turn (conversation + DedupKey)
// and the effect (kind, canonical arguments, occurrence in the turn). A
// turn run again after a crash — a web retry with the same
// Idempotency-Key, an inbox resumed at start — finds the effects it
// already made and skips them, returning the state as it is, so the
// shopper still gets an answer and nothing happens twice. See doc.go for
// why not one transaction per turn.

// ErrCrashed is what Handle returns when Config.Crash stopped the turn.
var ErrCrashed = errors.New("engine: turn stopped by the crash hook")

// Journal is one turn's view of the journal, shared by the session
// copies the concurrent tools of a round work on.
type Journal struct {
	key    string                  // journal turn key; "" keeps no journal
	dedup  string                  // the DedupKey it was made for
	crash  func(step string) bool  // Config.Crash
	cancel context.CancelCauseFunc // stops the turn's context on a crash

	mu      sync.Mutex
	seen    map[string]int // occurrences of each kind+arguments so far
	crashed bool
}

// effectTurnKey scopes the turn's DedupKey to its conversation, so two
// clients that pick the same key cannot collide.
func effectTurnKey(s *Session) string {
	switch {
	case s.DedupKey == "":
		return ""
	case s.Conversation != nil:
		return strconv.FormatInt(s.Conversation.ID, 10) + ":" + s.DedupKey
	}
	return s.IdempotencyKey()
}

// NewJournal is the journal view of the session's turn.
func NewJournal(s *Session, crash func(string) bool) *Journal {
	return &Journal{key: effectTurnKey(s), dedup: s.DedupKey, crash: crash}
}

// SetCancel gives the journal the turn context's cancel, called with
// ErrCrashed when the crash hook stops the turn.
func (fx *Journal) SetCancel(cancel context.CancelCauseFunc) { fx.cancel = cancel }

// effects returns the session's journal view; sessions built outside
// Handle (tool tests, which also reuse a session for several turns) get
// one on first use.
func (s *Session) effects() *Journal {
	if s.Journal == nil || s.Journal.dedup != s.DedupKey {
		s.Journal = NewJournal(s, nil)
	}
	return s.Journal
}

// effectKey names the next occurrence of an effect in the turn: a retry
// making the same calls finds the same keys, while two identical calls in
// one reply are two effects.
func (fx *Journal) effectKey(kind, args string) string {
	sum := sha256.Sum256([]byte(args))
	base := kind + ":" + hex.EncodeToString(sum[:8])
	fx.mu.Lock()
	defer fx.mu.Unlock()
	if fx.seen == nil {
		fx.seen = map[string]int{}
	}
	fx.seen[base]++
	return base + "#" + strconv.Itoa(fx.seen[base])
}

// Step is a point where a test may crash the turn (Config.Crash): the
// turn's context is cancelled and nothing later in it is written.
func (fx *Journal) Step(name string) error {
	if fx == nil || fx.crash == nil {
		return nil
	}
	fx.mu.Lock()
	defer fx.mu.Unlock()
	if !fx.crashed && fx.crash(name) {
		fx.crashed = true
		if fx.cancel != nil {
			fx.cancel(ErrCrashed)
		}
	}
	if fx.crashed {
		return ErrCrashed
	}
	return nil
}

// Stopped reports whether the turn crashed.
func (fx *Journal) Stopped() bool {
	if fx == nil {
		return false
	}
	fx.mu.Lock()
	defer fx.mu.Unlock()
	return fx.crashed
}

// effectWrite makes an effect through w, the writes of its transaction,
// and returns the notice it owes the merchant, if any.
type effectWrite func(ctx context.Context, w Writes) (*view.Notice, error)

// apply makes the effect of key once per turn: in one transaction of the
// write store it claims the journal row and writes. applied is false when
// a previous run of the turn made it; its notice, if still undelivered,
// goes out now.
func (d *Deps) apply(ctx context.Context, s *Session, key string, write effectWrite) (applied bool, err error) {
	fx := s.effects()
	if fx.Stopped() {
		return false, ErrCrashed
	}
	tx, err := d.writes().BeginEffect(ctx)
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
	if notice != nil && fx.key == "" {
		d.notify(*notice) // no journal: nothing to claim it in
		return applied, nil
	}
	if notice != nil || !applied {
		d.deliverPending(ctx, s, key)
	}
	return applied, nil
}

// effectIn is the body of an effect's transaction: it claims the journal
// row (none without a journal; a claim that finds the row skips the
// write), writes and keeps the notice owed with the row.
func (d *Deps) effectIn(ctx context.Context, tx EffectTx, fx *Journal, key string, write effectWrite) (applied bool, notice *view.Notice, err error) {
	if fx.key != "" {
		fresh, err := tx.ClaimEffect(ctx, fx.key, key, d.now())
		if err != nil || !fresh {
			return false, nil, err
		}
	}
	notice, err = write(ctx, tx)
	if err != nil {
		return false, nil, err
	}
	if notice != nil && fx.key != "" && d.Notify != nil {
		raw, err := json.Marshal(notice)
		if err != nil {
			return false, nil, err
		}
		if err := tx.SetEffectNotice(ctx, fx.key, key, string(raw)); err != nil {
			return false, nil, err
		}
	}
	return true, notice, fx.Step("effect-tx")
}

// deliverPending delivers the effect's notice if no run of the turn has
// claimed it yet.
func (d *Deps) deliverPending(ctx context.Context, s *Session, key string) {
	fx := s.effects()
	if d.Notify == nil || fx.key == "" {
		return
	}
	d.Deliver(context.WithoutCancel(ctx), fx.key, key)
}

// Deliver claims an effect's notice and sends it. A claimed notice is
// sent at most once; a failure to claim leaves it for a later run or the
// sweep (prune.go).
func (d *Deps) Deliver(ctx context.Context, turnKey, effectKey string) {
	raw, err := d.writes().TakeEffectNotice(ctx, turnKey, effectKey, d.now())
	if err != nil || raw == "" {
		return
	}
	var n view.Notice
	if json.Unmarshal([]byte(raw), &n) == nil {
		d.notify(n)
	}
}

func (d *Deps) now() time.Time {
	if d.Now == nil {
		return time.Now()
	}
	return d.Now()
}
