package telegram

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"shopbot/adapters/telegram/telegramtest"
	"shopbot/catalog/catalogtest"
	"shopbot/engine"
)

// streaming is an engine writing its answer word by word, slowly, with a
// tool round (typing) first.
type streaming struct{ words []string }

func (s streaming) Handle(ctx context.Context, _ engine.Turn, sink engine.Sink) error {
	if err := sink.Send(ctx, engine.Event{Kind: engine.EventTyping}); err != nil {
		return err
	}
	for _, w := range s.words {
		time.Sleep(15 * time.Millisecond) // the model's pace
		if err := sink.Send(ctx, engine.Event{Kind: engine.EventText, Text: w + " "}); err != nil {
			return err
		}
	}
	return sink.Send(ctx, engine.Event{Kind: engine.EventDone, Text: strings.Join(s.words, " ")})
}

func streamRig(t *testing.T) *rig {
	words := strings.Fields(strings.Repeat("streamed **answer** words ", 10))
	return newRig(t, catalogtest.SQLiteDemo(t), func(c *Config) {
		c.Engine = streaming{words: words}
		c.StreamAfter = 20 * time.Millisecond
		c.StreamEvery = 100 * time.Millisecond
	})
}

// TestStreamDrafts: a private chat sees drafts, then one real message.
func TestStreamDrafts(t *testing.T) {
	r := streamRig(t)
	r.waitHandled(r.srv.Push(telegramtest.Text(telegramtest.User(1001, "Max"), "hi")))
	if n := len(r.srv.Calls("sendChatAction")); n != 1 {
		t.Errorf("typing sent %d times", n)
	}
	drafts := r.srv.Calls("sendMessageDraft")
	if len(drafts) < 2 {
		t.Fatalf("drafts: %s", telegramtest.Dump(r.srv.Calls()))
	}
	throttled(t, "drafts", drafts)
	for i := 1; i < len(drafts); i++ {
		if drafts[i].Params["draft_id"] != drafts[0].Params["draft_id"] {
			t.Errorf("draft ids differ")
		}
	}
	final := r.sent("1001")
	if len(final) != 1 || final[0].Method != "sendMessage" || strings.Count(final[0].Text(), "<b>answer</b>") != 10 {
		t.Errorf("final: %s", telegramtest.Dump(final))
	}
}

// TestStreamDraftsUnsupported: a server answering 404 to sendMessageDraft
// gets one message edited at most once per StreamEvery, ending with the
// whole answer; drafts are not tried again.
func TestStreamDraftsUnsupported(t *testing.T) {
	r := streamRig(t)
	r.srv.NoDrafts()
	u := telegramtest.User(1002, "Ned")
	r.waitHandled(r.srv.Push(telegramtest.Text(u, "hi")))
	r.waitHandled(r.srv.Push(telegramtest.Text(u, "again")))
	if n := len(r.srv.Calls("sendMessageDraft")); n != 1 {
		t.Errorf("sendMessageDraft tried %d times after a 404", n)
	}
	calls := r.sent("1002")
	var sends, edits []telegramtest.Call
	for _, c := range calls {
		if c.Method == "sendMessage" {
			sends = append(sends, c)
		} else {
			edits = append(edits, c)
		}
	}
	if len(sends) != 2 || len(edits) < 2 {
		t.Fatalf("calls:\n%s", telegramtest.Dump(calls))
	}
	// Streaming edits of one message are StreamEvery apart; only the final
	// edit (the whole answer) may follow sooner.
	byMsg := map[int64][]telegramtest.Call{}
	for _, e := range edits {
		byMsg[e.Int("message_id")] = append(byMsg[e.Int("message_id")], e)
	}
	for id, es := range byMsg {
		throttled(t, fmt.Sprintf("message %d: edits", id), es[:len(es)-1])
	}
	last := edits[len(edits)-1]
	if strings.Count(last.Text(), "<b>answer</b>") != 10 || last.Int("message_id") != int64(sends[1].MessageID) {
		t.Errorf("last edit: %s", telegramtest.Dump([]telegramtest.Call{last}))
	}
}

// TestStreamGroupEdits: groups have no drafts: the answer is edited in place.
func TestStreamGroupEdits(t *testing.T) {
	r := streamRig(t)
	r.waitHandled(r.srv.Push(telegramtest.Group(-1003, telegramtest.User(1003, "Oz"), "@shop_test_bot hi")))
	if n := len(r.srv.Calls("sendMessageDraft")); n != 0 {
		t.Errorf("drafts in a group: %d", n)
	}
	if edits := r.srv.Calls("editMessageText"); len(edits) < 1 {
		t.Errorf("no edits: %s", telegramtest.Dump(r.srv.Calls()))
	}
}

// throttled checks that calls came at most once per StreamEvery (100 ms
// in streamRig). They are timed where the fake server received them, so
// load on the machine can bunch two of them up: the check is on the rate
// over the whole run, allowing one period of such jitter in all, not on
// each gap. Unthrottled, ten chunks come ~15 ms apart and fail it.
func throttled(t *testing.T, what string, calls []telegramtest.Call) {
	t.Helper()
	if len(calls) < 2 {
		return
	}
	const every = 100 * time.Millisecond
	span := calls[len(calls)-1].Time.Sub(calls[0].Time)
	if allowed := int(span/every) + 1; len(calls)-1 > allowed {
		t.Errorf("%s: %d in %s, want at most one per %s", what, len(calls), span, every)
	}
}
