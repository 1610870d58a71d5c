package slack_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"shopbot/adapters/slack/slackfake"
	"shopbot/catalog/demo"
	"shopbot/engine"
)

// hang is an engine whose turns never end by themselves: the turns in
// flight when the process stops.
type hang struct{ started chan string }

func newHang() hang { return hang{started: make(chan string, 16)} }

func (h hang) Handle(ctx context.Context, t engine.Turn, _ engine.Sink) error {
	h.started <- t.DedupKey
	<-ctx.Done()
	return ctx.Err()
}

// wait waits for n turns to have started.
func (h hang) wait(t *testing.T, n int) {
	t.Helper()
	for range n {
		select {
		case <-h.started:
		case <-time.After(patience):
			t.Fatal("the turn did not start")
		}
	}
}

// newCrashEnv is an env on the demo shop whose first adapter hangs in
// every turn, as a process that dies mid-turn.
func newCrashEnv(t *testing.T) (*env, hang) {
	h := newHang()
	e := newEnv(t, h)
	if _, err := demo.Load(context.Background(), e.db); err != nil {
		t.Fatal(err)
	}
	return e, h
}

// unhandled counts the inbox rows not yet handled.
func (e *env) unhandled() int {
	e.t.Helper()
	n, err := e.db.NewSelect().Table("inbox").Where("handled_at IS NULL").Count(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return int(n)
}

// TestResumeAfterCrash: a mention acknowledged but not answered when the
// process stopped is answered, once, by the next process; Slack's retry
// of it after the restart is acknowledged and not answered again.
func TestResumeAfterCrash(t *testing.T) {
	e, h := newCrashEnv(t)
	root := e.nextTS()
	body := e.postEvent(mention("UANN", "C1", root, "", "running shoes"))
	h.wait(t, 1)

	e.restart(nil)
	e.waitFor("C1", root, "the answer", func(m slackfake.Message) bool { return addButton(m, "") != "" })
	e.deliver(body, "X-Slack-Retry-Num", "1", "X-Slack-Retry-Reason", "http_timeout")
	e.ad.Wait()
	cards := 0
	for _, m := range e.fake.Messages("C1", root) {
		if addButton(m, "") != "" {
			cards++
		}
	}
	if cards == 0 || cards > 6 {
		t.Errorf("%d card messages: answered %s", cards, map[bool]string{true: "twice", false: "never"}[cards > 6])
	}
	if got := e.metric("shopbot_slack_duplicates_ignored_total", nil); got != 1 {
		t.Errorf("duplicates = %v, want 1 (the retry)", got)
	}
	if n := e.unhandled(); n != 0 {
		t.Errorf("%d requests left unhandled", n)
	}
	var turns int
	if err := e.db.NewRaw("SELECT count(*) FROM messages WHERE role = 'user'").Scan(context.Background(), &turns); err != nil {
		t.Fatal(err)
	}
	if turns != 1 {
		t.Errorf("%d user turns stored, want 1", turns)
	}
}

// TestResumeButtonAndCommand: a button press and a slash command cut off
// by a stop run after the restart, in the order they came.
func TestResumeButtonAndCommand(t *testing.T) {
	e, h := newCrashEnv(t)
	payload, _ := json.Marshal(map[string]any{
		"type": "block_actions", "user": map[string]any{"id": "UANN", "username": "ann"}, "trigger_id": "t1",
		"container": map[string]any{"type": "message", "message_ts": "1.2", "channel_id": "C1", "is_ephemeral": true},
		"channel":   map[string]any{"id": "C1"}, "response_url": e.fake.ResponseURL("t1"),
		"actions": []map[string]any{{"type": "button", "action_id": "add|SHO-RUN-001-42|1", "value": "add|SHO-RUN-001-42|1", "block_id": "x"}},
	})
	resp := e.send("/slack/interactions", "application/x-www-form-urlencoded", []byte(url.Values{"payload": {string(payload)}}.Encode()))
	if resp.StatusCode != 200 {
		t.Fatalf("interaction %d", resp.StatusCode)
	}
	if resp := e.command("UANN", "cart", "t2"); resp.StatusCode != 200 {
		t.Fatalf("command %d", resp.StatusCode)
	}
	h.wait(t, 1) // Ann's queue: the press runs, the command waits behind it
	if n := e.unhandled(); n != 2 {
		t.Fatalf("%d unhandled requests before the restart, want 2", n)
	}

	e.restart(nil)
	if !e.fake.Wait(patience, func() bool {
		rs := e.fake.Responses()
		return len(rs) > 0 && strings.Contains(responsesText(e), "AeroStride") && e.unhandled() == 0
	}) {
		t.Fatalf("not resumed: %s; %d unhandled", responsesText(e), e.unhandled())
	}
	var qty int
	if err := e.db.NewRaw("SELECT coalesce(sum(quantity), 0) FROM cart_items").Scan(context.Background(), &qty); err != nil {
		t.Fatal(err)
	}
	if qty != 1 {
		t.Errorf("cart holds %d items, want the one the press added", qty)
	}
}

// TestResumeDropsUnreadable: a stored request that cannot become work
// again (damaged, or of a kind this version does not know) is logged and
// marked handled; nothing is sent.
func TestResumeDropsUnreadable(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	for _, row := range []struct{ key, kind, payload string }{
		{"event:EvBAD", "event", `{"type":"event_callback","event_id":`},
		{"action:t9", "action", `[]`},
		{"cmd:t8", "command", `{"user_id":"UANN"}`}, // no response_url
		{"x:1", "telepathy", `{}`},
	} {
		if _, err := e.db.NewRaw("INSERT INTO inbox (source, key, kind, payload, received_at) VALUES ('slack', ?, ?, ?, ?)",
			row.key, row.kind, row.payload, time.Now().UTC()).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	e.restart(nil)
	e.ad.Wait()
	if n := e.unhandled(); n != 0 {
		t.Errorf("%d left unhandled", n)
	}
	if calls := e.fake.Calls("chat.postMessage", "chat.startStream"); len(calls) != 0 || len(e.fake.Responses()) != 0 {
		t.Errorf("sent %v / %v", calls, e.fake.Responses())
	}
}

// TestResumePrunes: handled requests older than a week are forgotten at
// start; recent ones stay, to recognise Slack's retries.
func TestResumePrunes(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	old, recent := time.Now().Add(-8*24*time.Hour).UTC(), time.Now().UTC()
	for _, row := range []struct {
		key string
		at  time.Time
	}{{"event:Old", old}, {"event:New", recent}} {
		if _, err := e.db.NewRaw("INSERT INTO inbox (source, key, kind, payload, received_at, handled_at) VALUES ('slack', ?, 'event', '{}', ?, ?)",
			row.key, row.at, row.at).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	e.restart(nil)
	var keys []string
	if err := e.db.NewRaw("SELECT key FROM inbox WHERE source = 'slack' ORDER BY key").Scan(ctx, &keys); err != nil {
		t.Fatal(err)
	}
	if strings.Join(keys, ",") != "event:New" {
		t.Errorf("inbox after pruning = %v, want [event:New]", keys)
	}
}

// TestCartMessageSurvivesRestart: after a restart (or on another
// replica) the thread's cart message is updated in place, not posted
// again; if it was deleted, a new one is posted and remembered.
func TestCartMessageSurvivesRestart(t *testing.T) {
	e := newEnv(t, nil)
	root := e.nextTS()
	e.postEvent(mention("UANN", "C1", root, "", "headphones")) // no variants: one press adds
	cards := e.waitFor("C1", root, "product cards", func(m slackfake.Message) bool { return addButton(m, "") != "" })
	first := addButton(cards, "")
	e.press("UANN", cards, first)
	cart := e.waitFor("C1", root, "channel cart", hasText("added by Ann"))
	e.ad.Wait() // the turn is over: a deploy, not a crash mid-turn

	e.restart(nil)
	e.press("UBOB", cards, addButton(cards, first))
	e.waitFor("C1", root, "cart with Bob", hasText("added by Bob"))
	var carts []slackfake.Message
	for _, m := range e.fake.Messages("C1", root) {
		if strings.Contains(text(m), "Channel cart") {
			carts = append(carts, m)
		}
	}
	if len(carts) != 1 || carts[0].TS != cart.TS || carts[0].Updates == 0 {
		t.Fatalf("want the cart message %s updated in place, got:\n%s\nall:\n%s", cart.TS, dump(carts), dump(e.fake.Messages("C1", root)))
	}

	e.fake.Fail("chat.update", "message_not_found")
	e.press("UANN", cards, first)
	fresh := e.waitFor("C1", root, "a new cart message", func(m slackfake.Message) bool {
		return m.TS != cart.TS && strings.Contains(text(m), "Channel cart")
	})
	e.ad.Wait() // the adapter remembers the new message after posting it
	var stored string
	if err := e.db.NewRaw("SELECT message_id FROM cart_messages WHERE source = 'slack' AND chat = 'C1' AND thread = ?", root).Scan(context.Background(), &stored); err != nil {
		t.Fatal(err)
	}
	if stored != fresh.TS {
		t.Errorf("stored cart message %s, want the new %s", stored, fresh.TS)
	}
}
