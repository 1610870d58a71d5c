package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"shopbot/engine"
)

// streamWriteWindow is how long writing one event may take.
const streamWriteWindow = time.Minute

// stream answers with server-sent events, one per engine event:
//
//	event: text     data: {"text": "…"}
//	event: cards    data: {"cards": [...]}
//	event: picker   data: {"type": "picker", "prompt": "…", "buttons": [...]}
//	event: notice   data: {"type": "notice", "kind": "back_in_stock", …}
//	event: done     data: {"reply": "…", "awaiting": "phone"}
//
// docs/web-chat.md describes every event; stream_test.go holds them to it.
func (c *Chat) stream(w http.ResponseWriter, r *http.Request, turn engine.Turn) {
	// ResponseController reaches the connection through middleware that
	// wraps the ResponseWriter (it follows Unwrap).
	rc := http.NewResponseController(w)
	started := false
	start := func() {
		if !started {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("Cache-Control", "no-store")
			w.Header().Set("X-Accel-Buffering", "no")
			w.WriteHeader(http.StatusOK)
			started = true
			// Notices that came since the last request, before the
			// answer: a 200 is committed, so they are delivered.
			for _, n := range c.takeNotices(r.Context(), turn.ChatID) {
				_ = writeData(w, "notice", n)
			}
		}
	}
	// An error before anything else is held back: if the turn failed
	// (the database down), a status code says so better than a 200 stream.
	var held *engine.Event
	rec := newRecorder(turn)
	err := c.handle(r, turn, engine.SinkFunc(func(_ context.Context, ev engine.Event) error {
		rec.see(ev)
		if !started && ev.Kind == engine.EventError && held == nil {
			held = &ev
			return nil
		}
		start()
		// The server's WriteTimeout bounds a whole response; a stream
		// lives as long as events keep coming, each within the window.
		_ = rc.SetWriteDeadline(time.Now().Add(streamWriteWindow))
		if held != nil {
			if err := writeEvent(w, *held); err != nil {
				return err
			}
			held = nil
		}
		if err := writeEvent(w, ev); err != nil {
			return err
		}
		return rc.Flush()
	}))
	if err == nil || started {
		c.record(r.Context(), turn.ChatID, rec) // what the shopper saw, for a reload
	}
	if err != nil && !started {
		c.failed(w, r, err) // nothing sent yet: a proper status code
		return
	}
	if held != nil { // said, yet the turn succeeded
		start()
		_ = writeEvent(w, *held)
		_ = rc.Flush()
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		c.log.ErrorContext(r.Context(), "web chat stream failed", "err", err)
	}
}

func writeEvent(w http.ResponseWriter, ev engine.Event) error {
	name, data, ok := eventData(ev)
	if !ok {
		return nil
	}
	return writeData(w, name, data)
}

// eventData is an engine event as the stream sends it (and the log keeps
// it): its name and its data; ok is false for one that sends nothing.
func eventData(ev engine.Event) (name string, data any, ok bool) {
	switch ev.Kind {
	case engine.EventText, engine.EventError:
		data = map[string]string{"text": ev.Text}
	case engine.EventDone:
		d := map[string]string{"reply": ev.Text}
		if ev.Awaiting != "" {
			d["awaiting"] = string(ev.Awaiting) // what checkout asks for next
		}
		data = d
	case engine.EventCards:
		data = map[string]any{"cards": ev.Cards}
	case engine.EventButtons:
		data = map[string]any{"buttons": ev.Buttons}
	case engine.EventCart:
		data = map[string]any{"cart": ev.Cart}
	case engine.EventOrder:
		data = map[string]any{"order": ev.Order}
	case engine.EventPicker:
		if ev.Picker == nil {
			return "", nil, false
		}
		data = pickerOf(ev.Picker)
	default:
		data = map[string]any{}
	}
	return string(ev.Kind), data, true
}

// writeData writes one server-sent event.
func writeData(w http.ResponseWriter, event string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	return err
}
