package admin_test

import (
	"context"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestTranscriptShowsTraceID: a turn recorded with tracing on names its
// trace once, on the shopper's message; a turn recorded with tracing off
// shows no trace.
func TestTranscriptShowsTraceID(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	p := newPanel(t, db)
	p.signIn()
	fx := seed(t, db)
	const id = "4bf92f3577b34da6a3ce929d0e0e4736"
	err := catalog.AppendMessages(context.Background(), db, fx.conv.ID,
		&catalog.Message{Role: catalog.RoleUser, Content: "traced question", TraceID: id},
		&catalog.Message{Role: catalog.RoleAssistant, Content: "traced answer", Model: "m", TraceID: id},
		&catalog.Message{Role: catalog.RoleUser, Content: "untraced question"})
	if err != nil {
		t.Fatal(err)
	}
	code, body := p.get("/admin/conversations/" + itoa(fx.conv.ID))
	if code != 200 {
		t.Fatalf("transcript: %d", code)
	}
	if n := strings.Count(body, `trace <code class="trace">`+id+`</code>`); n != 1 {
		t.Errorf("the trace id shows %d times, want once (on the shopper's message):\n%s", n, body)
	}
	if n := strings.Count(body, `class="trace"`); n != 1 {
		t.Errorf("%d trace ids shown, want 1 (the untraced turn has none)", n)
	}
}
