package engine

import (
	"context"
	"shopbot/engine/toolkit"
	"sync"

	"shopbot/engine/session"
	"shopbot/engine/view"
)

// A turn's reply goes to the adapter's Sink through a chain built once per
// turn (replySink): crashed turns send nothing more (stoppableSink, tests
// only), EventDone carries what checkout awaits (awaitingSink), and a
// reply carries one cart, the latest (oneCartSink). Every answer path —
// the model loop (loop.go), the offline planner (offline.go) and button
// presses (actions.go) — sends through the helpers below: emitResult for
// what a tool produced, sendText for a whole answer, say for one of the
// engine's own messages.

// replySink wraps the adapter's sink for session s. flush sends what the
// one-cart sink still holds once the turn has answered.
func replySink(sink Sink, s *session.Session, crashable bool) (out Sink, flush func(context.Context) error) {
	carts := newOneCartSink(awaitingSink{sink, s})
	out = carts
	if crashable {
		out = stoppableSink(out, s.Journal)
	}
	return out, carts.flush
}

// emitResult sends what a tool produced for the shopper to see.
func emitResult(ctx context.Context, sink Sink, res toolkit.Result) error {
	var evs []Event
	if len(res.Cards) > 0 {
		evs = append(evs, Event{Kind: EventCards, Cards: res.Cards})
	}
	if res.Cart != nil {
		evs = append(evs, Event{Kind: EventCart, Cart: res.Cart})
	}
	if res.Order != nil {
		evs = append(evs, Event{Kind: EventOrder, Order: res.Order})
	}
	if len(res.Buttons) > 0 {
		evs = append(evs, Event{Kind: EventButtons, Buttons: res.Buttons})
	}
	if res.Picker != nil {
		evs = append(evs, Event{Kind: EventPicker, Picker: res.Picker})
	}
	for _, ev := range evs {
		if err := sink.Send(ctx, ev); err != nil {
			return err
		}
	}
	return nil
}

// sendText sends a complete, non-streamed answer.
func sendText(ctx context.Context, sink Sink, text string) error {
	if err := sink.Send(ctx, Event{Kind: EventText, Text: text}); err != nil {
		return err
	}
	return sink.Send(ctx, Event{Kind: EventDone, Text: text})
}

// say answers with one of the engine's messages and records it.
func (e *Engine) say(ctx context.Context, s *session.Session, sink Sink, rec *recorder, key messageKey) error {
	msg := engineMessage(s.Locale, key)
	rec.assistant(msg)
	return sendText(ctx, sink, msg)
}

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

// stoppableSink drops a crashed turn's events, as a dead process would
// send none (only used with Config.Crash). It is the turn's side of the
// effects journal with handle (engine.go): the tools journal each effect
// (engine/session); the engine gives each turn its Journal, hands it the
// crash hook and the turn context's cancel, and stops a crashed turn
// before it persists or sends anything more.
func stoppableSink(sink Sink, j *session.Journal) Sink {
	return SinkFunc(func(ctx context.Context, ev Event) error {
		if j.Stopped() {
			return session.ErrCrashed
		}
		return sink.Send(ctx, ev)
	})
}

// oneCartSink makes a reply carry one cart, the latest. A turn may read
// or change the cart several times: the planner views the cart, then
// updates a line ("remove one"), or removes line after line ("clear the
// cart"); the model views the cart in one round and adds in the next.
// Each result carries the cart as it read it, and every adapter renders
// each EventCart as a cart block, so a reply showed the old cart, then the
// new one.
//
// From a cart on, the reply's events are held back (typing passes) until
// the answer's words begin (text, done, error) or the turn ends; a later
// cart replaces the held one in its place, and buttons already held are
// not repeated (each cart result offers the same View cart and Checkout).
// The held events then go out in order, so a reply with one cart reads as
// it did. Only a model that writes words and then changes the cart again
// in a later round shows a second cart: the first was on screen already.
type oneCartSink struct {
	next Sink

	mu   sync.Mutex
	held []Event // from the first cart on; empty when no cart is held
}

func newOneCartSink(next Sink) *oneCartSink { return &oneCartSink{next: next} }

// Send implements Sink.
func (o *oneCartSink) Send(ctx context.Context, ev Event) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case ev.Kind == EventCart:
		for i := range o.held {
			if o.held[i].Kind == EventCart {
				o.held[i] = ev // the latest cart, where the first one was
				return nil
			}
		}
		o.held = append(o.held, ev)
		return nil
	case len(o.held) == 0 || ev.Kind == EventTyping:
		return o.next.Send(ctx, ev)
	case ev.Kind == EventButtons:
		if ev.Buttons = o.newButtons(ev.Buttons); len(ev.Buttons) > 0 {
			o.held = append(o.held, ev)
		}
		return nil
	case ev.Kind == EventText || ev.Kind == EventDone || ev.Kind == EventError:
		if err := o.release(ctx); err != nil {
			return err
		}
		return o.next.Send(ctx, ev)
	default:
		o.held = append(o.held, ev)
		return nil
	}
}

// newButtons is bs less the buttons already held.
func (o *oneCartSink) newButtons(bs []view.Button) []view.Button {
	seen := map[string]bool{}
	for _, ev := range o.held {
		for _, b := range ev.Buttons {
			seen[b.Data] = true
		}
	}
	var out []view.Button
	for _, b := range bs {
		if !seen[b.Data] {
			seen[b.Data] = true
			out = append(out, b)
		}
	}
	return out
}

// flush sends what is still held: a turn that ended without words.
func (o *oneCartSink) flush(ctx context.Context) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.release(ctx)
}

func (o *oneCartSink) release(ctx context.Context) error {
	held := o.held
	o.held = nil
	for _, ev := range held {
		if err := o.next.Send(ctx, ev); err != nil {
			return err
		}
	}
	return nil
}
