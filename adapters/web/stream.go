package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"shopbot/engine"
)

// stream answers with server-sent events, one per engine event:
//
//	event: text     data: {"text": "…"}
//	event: cards    data: {"cards": [...]}
//	event: done     data: {"reply": "…"}
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
		}
	}
	err := c.engine.Handle(r.Context(), turn, engine.SinkFunc(func(_ context.Context, ev engine.Event) error {
		start()
		if err := writeEvent(w, ev); err != nil {
			return err
		}
		return rc.Flush()
	}))
	if err == nil {
		return
	}
	if !started {
		c.failed(w, r, err) // nothing sent yet: a proper status code
		return
	}
	if !errors.Is(err, context.Canceled) {
		c.log.ErrorContext(r.Context(), "web chat stream failed", "err", err)
	}
}

func writeEvent(w http.ResponseWriter, ev engine.Event) error {
	var data any
	switch ev.Kind {
	case engine.EventText, engine.EventError:
		data = map[string]string{"text": ev.Text}
	case engine.EventDone:
		data = map[string]string{"reply": ev.Text}
	case engine.EventCards:
		data = map[string]any{"cards": ev.Cards}
	case engine.EventButtons:
		data = map[string]any{"buttons": ev.Buttons}
	case engine.EventCart:
		data = map[string]any{"cart": ev.Cart}
	case engine.EventOrder:
		data = map[string]any{"order": ev.Order}
	default:
		data = map[string]any{}
	}
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.Kind, b)
	return err
}
