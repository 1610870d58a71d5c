package engine

import (
	"context"
	"errors"
	"time"

	"shopbot/engine/view"
)

// EventKind says what an Event carries.
type EventKind string

const (
	EventText    EventKind = "text"    // Text is the next piece of the answer
	EventCards   EventKind = "cards"   // Cards to show as product cards
	EventButtons EventKind = "buttons" // Buttons as quick replies
	EventPicker  EventKind = "picker"  // Picker: which variant to add (view.Picker)
	EventCart    EventKind = "cart"    // Cart: the cart after a change or on request
	EventOrder   EventKind = "order"   // Order: a placed order or its status
	EventTyping  EventKind = "typing"  // tools are running; show a typing indicator
	EventDone    EventKind = "done"    // the turn is complete; Text is the whole answer
	EventError   EventKind = "error"   // Text is a polite message for the shopper
)

// Event is one piece of a reply, streamed to the adapter's Sink.
type Event struct {
	Kind    EventKind
	Text    string
	Cards   []view.Card
	Buttons []view.Button
	Cart    *view.CartView
	Order   *view.OrderView
	Picker  *view.Picker
	// Awaiting, on EventDone, is what checkout waits for from the
	// shopper after this turn, or "" (awaiting.go).
	Awaiting Awaiting
}

// Sink receives a turn's reply as it is produced. Adapters render each
// event natively (Telegram HTML and inline keyboards, Slack Block Kit,
// SSE JSON, terminal text).
type Sink interface {
	Send(ctx context.Context, ev Event) error
}

// SinkFunc adapts a function to Sink.
type SinkFunc func(ctx context.Context, ev Event) error

// Send implements Sink.
func (f SinkFunc) Send(ctx context.Context, ev Event) error { return f(ctx, ev) }

// ErrRateLimited is returned by Handle after a rate-limited shopper was
// told to slow down, so HTTP adapters can answer 429.
var ErrRateLimited = errors.New("engine: rate limited")

// RateLimitedError is the ErrRateLimited Handle returns, with how long
// until the customer's window ends (HTTP adapters send it as Retry-After).
type RateLimitedError struct{ RetryAfter time.Duration }

func (e *RateLimitedError) Error() string { return ErrRateLimited.Error() }
func (e *RateLimitedError) Unwrap() error { return ErrRateLimited }

// RetryAfter is how long the shopper of a rate-limited turn should wait
// (err from Handle); 0 when err does not say.
func RetryAfter(err error) time.Duration {
	var rl *RateLimitedError
	if errors.As(err, &rl) {
		return rl.RetryAfter
	}
	return 0
}

// ErrBadTurn reports a turn an adapter should not have sent (no identity,
// empty or oversized message).
var ErrBadTurn = errors.New("engine: invalid turn")

// ErrReplayed reports a turn whose DedupKey the conversation has handled
// already: an adapter delivered it again (an inbox resumed after a stop, a
// client's retry). Nothing was done or said; chat adapters stay silent.
var ErrReplayed = errors.New("engine: turn already handled")

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
