package web

import (
	"context"
	"net/http"

	"shopbot/engine"
)

// Keys remembers the Idempotency-Keys clients sent, per session, for a
// set time in shared storage (catalog.IdempotencyKeys, wired in bot/), so
// a key replayed long after its turn is answered 409 on any replica. The
// engine itself recognises only a conversation's last turns' keys; Keys
// covers the rest.
type Keys interface {
	Seen(ctx context.Context, scope, key string) (bool, error)
	Remember(ctx context.Context, scope, key string) error
}

// RememberKeys makes the chat remember clients' Idempotency-Keys in keys.
func (c *Chat) RememberKeys(keys Keys) { c.keys = keys }

// keyScope is where a session's keys live: a key is the client's for one
// session.
func keyScope(turn engine.Turn) string { return "web:" + turn.ChatID }

// clientKey is the request's own Idempotency-Key ("" when the chat made
// one up).
func clientKey(r *http.Request) string { return r.Header.Get("Idempotency-Key") }

// replayed answers 409 when the request's Idempotency-Key was remembered
// for its session (or 503 when that cannot be known now) and reports
// whether it answered.
func (c *Chat) replayed(w http.ResponseWriter, r *http.Request, turn engine.Turn) bool {
	if c.keys == nil || clientKey(r) == "" {
		return false
	}
	seen, err := c.keys.Seen(r.Context(), keyScope(turn), turn.DedupKey)
	if err != nil {
		return c.failed(w, r, err)
	}
	if seen {
		return c.failed(w, r, engine.ErrReplayed)
	}
	return false
}

// handle runs the turn and, once it succeeded, remembers its client key.
// Failing to remember is logged, not answered: the turn is done, and the
// engine still knows the key for the conversation's next turns.
func (c *Chat) handle(r *http.Request, turn engine.Turn, sink engine.Sink) error {
	err := c.engine.Handle(r.Context(), turn, sink)
	if err == nil && c.keys != nil && clientKey(r) != "" {
		if kerr := c.keys.Remember(r.Context(), keyScope(turn), turn.DedupKey); kerr != nil {
			c.log.WarnContext(r.Context(), "web chat: idempotency key not remembered", "err", kerr)
		}
	}
	return err
}
