package slack_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	slackad "shopbot/adapters/slack"
	"shopbot/adapters/slack/slackfake"
	"shopbot/engine"
	"shopbot/engine/view"
)

// TestSocketMode runs the adapter over the fake's Socket Mode: events,
// slash commands and button presses go through the same accept functions
// as HTTP — the same event delivered over HTTP and then over the socket
// is answered once — and each request is acknowledged.
func TestSocketMode(t *testing.T) {
	ce := &countingEngine{}
	e := newEnv(t, ce, func(_ *engine.Config, ac *slackad.Config) { ac.AppToken = slackfake.AppToken })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.ad.RunSocketMode(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("socket mode did not stop")
		}
	})

	root := e.nextTS()
	_, body := e.event(mention("UANN", "C1", root, "", "hi"))
	var envelope map[string]any
	_ = json.Unmarshal(body, &envelope)
	id := e.fake.SocketSend("events_api", envelope, 0)
	e.waitFor("C1", root, "the answer", hasText("Hello Ann"))
	acked := func(id string) json.RawMessage {
		t.Helper()
		var payload json.RawMessage
		if !e.fake.Wait(patience, func() bool {
			for _, a := range e.fake.Acks() {
				if a.EnvelopeID == id {
					payload = a.Payload
					return true
				}
			}
			return false
		}) {
			t.Fatalf("envelope %s not acknowledged", id)
		}
		return payload
	}
	acked(id)

	// The same event again over the socket (a retry) and over HTTP.
	acked(e.fake.SocketSend("events_api", envelope, 1))
	e.deliver(body)
	e.ad.Wait()
	if n := len(ce.Turns()); n != 1 {
		t.Errorf("%d turns for one event delivered three times", n)
	}

	help := acked(e.fake.SocketSend("slash_commands", map[string]any{"command": "/shop", "text": "help", "user_id": "UANN",
		"trigger_id": "t9", "response_url": "https://hooks.slack.com/commands/T1/1/x", "channel_id": "C1"}, 0))
	if !strings.Contains(string(help), "/shop orders") {
		t.Errorf("help ack payload: %s", help)
	}

	acked(e.fake.SocketSend("interactive", map[string]any{"type": "block_actions", "user": map[string]any{"id": "UBOB"},
		"trigger_id": "t10", "channel": map[string]any{"id": "C1"}, "team": map[string]any{"id": "T1"},
		"container": map[string]any{"type": "message", "message_ts": root, "thread_ts": root, "channel_id": "C1"},
		"actions":   []map[string]any{{"type": "button", "action_id": "cart", "value": "cart", "block_id": "b"}}}, 0))
	if !e.fake.Wait(patience, func() bool { return len(ce.Turns()) == 2 }) {
		t.Fatalf("button press over the socket started no turn")
	}
	if tr := ce.Turns()[1]; tr.Action == nil || tr.Action.Kind != view.ActCart || tr.ThreadID != root || !tr.Shared {
		t.Errorf("turn from the socket = %+v", tr)
	}
}
