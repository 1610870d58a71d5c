package engine

import (
	"context"
	"sync"

	"shopbot/engine/view"
)

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
