package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"sync"
)

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

// Effects returns the session's journal view; sessions built outside
// Handle (tool tests, which also reuse a session for several turns) get
// one on first use.
func (s *Session) Effects() *Journal {
	if s.Journal == nil || s.Journal.dedup != s.DedupKey {
		s.Journal = NewJournal(s, nil)
	}
	return s.Journal
}

// EffectKey names the next occurrence of an effect in the turn: a retry
// making the same calls finds the same keys, while two identical calls in
// one reply are two effects.
func (fx *Journal) EffectKey(kind, args string) string {
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

// Key is the journal's turn key ("" keeps no journal): the turn's DedupKey
// scoped to its conversation.
func (fx *Journal) Key() string { return fx.key }
