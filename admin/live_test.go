package admin_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"shopbot/admin"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/live"
)

// liveStream is an open /admin/events stream.
type liveStream struct {
	t    *testing.T
	sc   *bufio.Scanner
	stop context.CancelFunc
}

// openStream opens p's event stream (lastID "" for from now on) and
// returns once the server has answered, so changes made after it are
// streamed.
func openStream(t *testing.T, p *panel, lastID string) *liveStream {
	t.Helper()
	// The deadline only stops a broken test from hanging; nothing is timed.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	req, _ := http.NewRequestWithContext(ctx, "GET", p.srv.URL+"/admin/events", nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := p.client.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		cancel()
		t.Fatalf("events = %v, %v", resp, err)
	}
	t.Cleanup(func() { cancel(); resp.Body.Close() })
	s := &liveStream{t: t, sc: bufio.NewScanner(resp.Body), stop: cancel}
	if !s.sc.Scan() || s.sc.Text() != ": live" {
		t.Fatalf("the stream did not start: %q", s.sc.Text())
	}
	return s
}

// next returns the next inbox event.
func (s *liveStream) next() live.Event {
	s.t.Helper()
	for s.sc.Scan() {
		line := s.sc.Text()
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			var e live.Event
			if err := json.Unmarshal([]byte(data), &e); err != nil {
				s.t.Fatalf("bad event %q: %v", data, err)
			}
			return e
		}
	}
	s.t.Fatalf("the stream ended without an event: %v", s.sc.Err())
	return live.Event{}
}

// livePanel is a panel on db whose live hub runs until the test ends.
// On Postgres its poll is an hour apart, so only NOTIFY can wake it in
// time for the test: the test shows that LISTEN/NOTIFY works.
func livePanel(t *testing.T, db *bun.DB, more ...func(*admin.Config)) *panel {
	t.Helper()
	poll := 20 * time.Millisecond
	if db.Dialect().Name() == dialect.PG {
		poll = time.Hour
	}
	hub := live.NewHub(db, nil, poll)
	ctx, cancel := context.WithCancel(context.Background())
	go hub.Run(ctx)
	p := newPanelConfig(t, db, func(c *admin.Config) {
		c.Live = hub
		for _, m := range more {
			m(c)
		}
	})
	// Registered after the server's Close, so it runs first: the streams
	// end and Close does not wait for them.
	t.Cleanup(cancel)
	return p
}

// TestLiveAcrossReplicas: a panel open on replica A hears of a shopper's
// message and of a workflow change made on replica B (Postgres: NOTIFY;
// SQLite: polling), and a stream resumed from an id gets what came after.
func TestLiveAcrossReplicas(t *testing.T) {
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		a := livePanel(t, dbs[0])
		f := seed(t, dbs[0])
		b := livePanel(t, dbs[1])
		a.signIn()
		b.signIn()
		stream := openStream(t, a, "")

		if err := catalog.AppendMessages(context.Background(), dbs[1], f.conv.ID, &catalog.Message{Role: catalog.RoleUser, Content: "anyone there?"}); err != nil {
			t.Fatal(err)
		}
		e := stream.next()
		if e.ConversationID != f.conv.ID || e.Kind != "message" {
			t.Errorf("first event = %+v, want a message in conversation %d", e, f.conv.ID)
		}
		if code, _, _ := b.post("/admin/conversations/"+itoa(f.conv.ID)+"/status", url.Values{"status": {"pending"}}); code != http.StatusSeeOther {
			t.Fatalf("status on B = %d", code)
		}
		if e2 := stream.next(); e2.ConversationID != f.conv.ID || e2.Kind != "state" || e2.ID <= e.ID {
			t.Errorf("second event = %+v, want a state change after %d", e2, e.ID)
		}
		resumed := openStream(t, a, itoa(e.ID-1))
		if got := resumed.next(); got.ID != e.ID {
			t.Errorf("resumed from %d, got event %d first", e.ID-1, got.ID)
		}
	})
}
