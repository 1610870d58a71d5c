package telegram

import (
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"shopbot/adapters/telegram/telegramtest"
	"shopbot/catalog/catalogtest"
)

// Test429: after a 429 with retry_after=2 nothing is sent to the chat
// before 2 s, then the message goes through.
func Test429(t *testing.T) {
	r := newRig(t, catalogtest.SQLiteDemo(t), nil)
	r.srv.Fail("sendMessage", "801", telegramtest.TooMany(2), 1)
	r.srv.Push(telegramtest.Text(telegramtest.User(801, "Gus"), "/help"))
	ok := r.waitText("801", "What I can do")
	calls := r.sent("801")
	if len(calls) != 2 || calls[0].Status != 429 {
		t.Fatalf("calls:\n%s", telegramtest.Dump(calls))
	}
	if gap := ok.Time.Sub(calls[0].Time); gap < 2*time.Second {
		t.Errorf("resent %s after the 429, before retry_after=2s", gap)
	}
	if n := testutil.ToFloat64(r.a.metrics.rateLimited); n != 1 {
		t.Errorf("429s counted = %v", n)
	}
}

// Test429Bounded: a chat that keeps answering 429 is given up after
// maxAttempts.
func Test429Bounded(t *testing.T) {
	r := newRig(t, catalogtest.SQLiteDemo(t), nil)
	r.srv.Fail("sendMessage", "802", telegramtest.TooMany(1), -1)
	id := r.srv.Push(telegramtest.Text(telegramtest.User(802, "Hal"), "/help"))
	r.waitHandled(id)
	if n := len(r.sent("802")); n != maxAttempts {
		t.Errorf("%d attempts, want %d", n, maxAttempts)
	}
}

// TestUnreachableChats: a blocked bot or a deleted chat is tried once,
// logged and skipped; other chats carry on.
func TestUnreachableChats(t *testing.T) {
	r := newRig(t, catalogtest.SQLiteDemo(t), nil)
	r.srv.Fail("*", "803", telegramtest.Blocked, -1)
	r.srv.Fail("*", "804", telegramtest.ChatNotFound, -1)
	for _, id := range []int64{803, 804} {
		u := telegramtest.User(id, "Ivy")
		r.waitHandled(r.srv.Push(telegramtest.Text(u, "/start")))
		r.waitHandled(r.srv.Push(telegramtest.Text(u, "zanzibar mug")))
	}
	for _, chat := range []string{"803", "804"} {
		if n := len(r.sent(chat)); n != 1 {
			t.Errorf("chat %s: %d sends, want 1 then skipped:\n%s", chat, n, telegramtest.Dump(r.sent(chat)))
		}
	}
	r.srv.Push(telegramtest.Text(telegramtest.User(805, "Jo"), "/help"))
	r.waitText("805", "What I can do")
	if n := testutil.ToFloat64(r.a.metrics.sends.WithLabelValues("sendMessage", "blocked")); n != 1 {
		t.Errorf("blocked sends counted = %v", n)
	}
}

// TestPacing: new messages to one private chat are spaced about 1 s
// apart after the burst.
func TestPacing(t *testing.T) {
	p := newPacer(time.Second, 3*time.Second, 2)
	now := time.Now()
	var waits []time.Duration
	for range 4 {
		waits = append(waits, p.reserve(42, now))
	}
	want := []time.Duration{0, 0, time.Second, 2 * time.Second}
	for i := range want {
		if waits[i] != want[i] {
			t.Fatalf("private waits = %v, want %v", waits, want)
		}
	}
	if d := p.reserve(-100, now); d != 0 {
		t.Errorf("first group message waits %s", d)
	}
	p.reserve(-100, now)
	if d := p.reserve(-100, now); d != 3*time.Second {
		t.Errorf("third group message waits %s, want 3s (20 a minute)", d)
	}
	if d := p.reserve(43, now); d != 0 {
		t.Errorf("another chat waits %s", d)
	}
}
