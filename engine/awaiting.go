package engine

import (
	"context"
	"shopbot/engine/session"
)

// Awaiting is what checkout waits for from the shopper: a contact detail
// it asked for, or the confirmation of the summary it showed.
//
// It rides on EventDone rather than being a call adapters make after the
// turn: the engine has the conversation state in hand at that moment, so
// an adapter that offers a native control for the answer (Telegram's
// "share phone number" keyboard) needs no second read of the database,
// and it learns the state of this very turn, not of a later one that
// slipped in between.
type Awaiting string

const (
	AwaitingName    Awaiting = "name"
	AwaitingPhone   Awaiting = "phone"
	AwaitingAddress Awaiting = "address"
	AwaitingConfirm Awaiting = "confirm"
	// AwaitingDelivery: the delivery methods were offered (as buttons).
	AwaitingDelivery Awaiting = "delivery"
)

// awaitingSink marks a turn's EventDone with what checkout waits for once
// the turn has answered. It reads the session when the event is sent, so
// the state is the one the turn's tools left (and the one it persists).
type awaitingSink struct {
	Sink
	s *session.Session
}

func (a awaitingSink) Send(ctx context.Context, ev Event) error {
	if ev.Kind == EventDone && a.s.State.Checkout != nil {
		ev.Awaiting = Awaiting(a.s.State.Checkout.Awaiting)
	}
	return a.Sink.Send(ctx, ev)
}
