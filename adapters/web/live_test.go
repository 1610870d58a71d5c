package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"shopbot/adapters/web"
	"shopbot/engine/view"
)

// liveStream connects to GET /api/chat/events and yields its events.
func liveStream(t *testing.T, h http.HandlerFunc, s string) (<-chan sseEvent, *http.Response) {
	t.Helper()
	return liveStreamFrom(t, h, s, "")
}

// liveStreamFrom is liveStream resuming after lastID (Last-Event-ID).
func liveStreamFrom(t *testing.T, h http.HandlerFunc, s, lastID string) (<-chan sseEvent, *http.Response) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/api/chat/events?session="+s, nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); resp.Body.Close() })
	ch := make(chan sseEvent, 16)
	go func() {
		defer close(ch)
		var cur sseEvent
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "" && cur.Name != "":
				ch <- cur
				cur = sseEvent{}
			case strings.HasPrefix(line, "id: "):
				cur.ID = strings.TrimPrefix(line, "id: ")
			case strings.HasPrefix(line, "event: "):
				cur.Name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				_ = json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &cur.Data)
			}
		}
	}()
	return ch, resp
}

func next(t *testing.T, ch <-chan sseEvent) sseEvent {
	t.Helper()
	select {
	case ev, ok := <-ch:
		if !ok {
			t.Fatal("stream ended")
		}
		return ev
	case <-time.After(30 * time.Second):
		t.Fatal("no event within 30 s")
	}
	return sseEvent{}
}

// TestLiveEvents: the live stream opens with "ready", delivers the
// notices that waited (missed while away) at once, then a merchant's
// reply the moment DeliverStaffMessage is called on this replica, and a
// notice another replica put in the shared store within the poll.
func TestLiveEvents(t *testing.T) {
	store, log := &sharedStore{}, &web.MemoryEvents{}
	a, b := newChat(&fakeEngine{}), newChat(&fakeEngine{})
	a.KeepNotices(store)
	b.KeepNotices(store)
	a.KeepEvents(log)
	b.KeepEvents(log)
	a.PollNotices(20 * time.Millisecond)
	if err := a.Notify(t.Context(), backInStock(session)); err != nil {
		t.Fatal(err)
	}
	ch, resp := liveStream(t, a.Events, session)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %v", resp.StatusCode, resp.Header)
	}
	if ev := next(t, ch); ev.Name != "ready" {
		t.Fatalf("first event %s", ev.Name)
	}
	ev := next(t, ch)
	if ev.Name != "notice" || ev.Data["kind"] != "back_in_stock" || ev.Data["card"] == nil || ev.Data["buttons"] == nil {
		t.Fatalf("missed notice = %+v", ev)
	}
	if err := a.DeliverStaffMessage(t.Context(), session, "Anna here: your size is back on Monday."); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, ch); ev.Data["kind"] != "merchant_reply" || ev.Data["text"] != "Anna here: your size is back on Monday." {
		t.Fatalf("staff message = %+v", ev)
	}
	o := view.Notice{Kind: view.NoticeOrderStatus, Order: &view.OrderView{Number: "SB-7", Status: "shipped"}}
	o.Where.Channel, o.Where.ChatID = "web", session
	if err := b.Notify(t.Context(), o); err != nil { // replica B
		t.Fatal(err)
	}
	if ev := next(t, ch); ev.Data["kind"] != "order_status" || !strings.Contains(ev.Data["text"].(string), "SB-7") {
		t.Fatalf("other replica's notice = %+v", ev)
	}
	if n := a.Streams(); n != 1 {
		t.Errorf("%d streams open, want 1", n)
	}
}

// TestLiveEventsBadInput: a bad session is a 400 and opens no stream;
// a staff message for a bad session is an error.
func TestLiveEventsBadInput(t *testing.T) {
	c := newChat(&fakeEngine{})
	for _, s := range []string{"", "short", "../../etc/passwd/../../etc/x", strings.Repeat("a", 65)} {
		w := httptest.NewRecorder()
		c.Events(w, httptest.NewRequest("GET", "/api/chat/events?session="+s, nil))
		if w.Code != 400 || !strings.Contains(w.Body.String(), `"error"`) {
			t.Errorf("session %q: %d %s", s, w.Code, w.Body)
		}
	}
	if c.Streams() != 0 {
		t.Error("a refused stream is counted")
	}
	if err := c.DeliverStaffMessage(t.Context(), "bad", "hi"); err == nil {
		t.Error("staff message to a bad session accepted")
	}
	if err := c.DeliverStaffMessage(t.Context(), session, ""); err == nil {
		t.Error("empty staff message accepted")
	}
}
