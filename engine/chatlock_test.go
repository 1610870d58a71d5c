package engine

import (
	"context"
	"errors"
	"testing"

	"shopbot/catalog/search/searchtest"
	"shopbot/engine/view"
)

type fakeLocks struct {
	keys     []string
	unlocked int
	err      error
}

func (f *fakeLocks) Lock(_ context.Context, key string) (func(), error) {
	f.keys = append(f.keys, key)
	if f.err != nil {
		return nil, f.err
	}
	return func() { f.unlocked++ }, nil
}

// With ChatLocks set (Postgres: one lock per chat across replicas), every
// turn holds its chat's lock; a lock that cannot be taken ends the turn
// with a polite error and no tool runs.
func TestTurnsHoldTheCrossProcessChatLock(t *testing.T) {
	env := newTestEnv(t)
	locks := &fakeLocks{}
	eng, err := New(Config{DB: env.db, Search: searchtest.NewDatabase(env.db), ChatLocks: locks})
	if err != nil {
		t.Fatal(err)
	}
	a := view.Action{Kind: view.ActAdd, SKU: "SHO-RUN-001-42", Qty: 1}
	turn := Turn{Channel: "slack", ChatID: "C1", ThreadID: "171.5", UserID: "U1", Action: &a, DedupKey: "e1"}
	if err := eng.Handle(context.Background(), turn, &events{}); err != nil {
		t.Fatal(err)
	}
	if len(locks.keys) != 1 || locks.keys[0] != "slack\x00C1\x00171.5" || locks.unlocked != 1 {
		t.Fatalf("locks %q, unlocked %d: want one lock of the thread, released", locks.keys, locks.unlocked)
	}

	locks.err = errors.New("database down")
	ev := &events{}
	turn.DedupKey = "e2"
	if err := eng.Handle(context.Background(), turn, ev); err == nil {
		t.Fatal("a turn ran without its chat lock")
	}
	if len(ev.of(EventError)) != 1 || len(ev.of(EventCart)) != 0 {
		t.Fatalf("events %+v: want one polite error and no cart change", ev.all)
	}
}
