package slack_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	slackad "shopbot/adapters/slack"
	"shopbot/adapters/slack/slackfake"
	"shopbot/catalog"
	"shopbot/engine"
	"shopbot/engine/llmtest"
	"shopbot/engine/openai"
)

// countingEngine answers every turn with one line and records the turns.
type countingEngine struct {
	mu    sync.Mutex
	turns []engine.Turn
	reply func(t engine.Turn) []engine.Event
}

func (c *countingEngine) Handle(ctx context.Context, t engine.Turn, sink engine.Sink) error {
	c.mu.Lock()
	c.turns = append(c.turns, t)
	c.mu.Unlock()
	evs := []engine.Event{{Kind: engine.EventText, Text: "Hello " + t.UserName}, {Kind: engine.EventDone, Text: "Hello " + t.UserName}}
	if c.reply != nil {
		evs = c.reply(t)
	}
	for _, ev := range evs {
		if err := sink.Send(ctx, ev); err != nil {
			return err
		}
	}
	return nil
}

func (c *countingEngine) Turns() []engine.Turn {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]engine.Turn(nil), c.turns...)
}

func TestURLVerification(t *testing.T) {
	e := newEnv(t, &countingEngine{})
	resp := e.send("/slack/events", "application/json", []byte(`{"token":"x","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","type":"url_verification"}`))
	if b := readBody(resp); resp.StatusCode != 200 || b != "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" {
		t.Errorf("%d %q", resp.StatusCode, b)
	}
	resp = e.send("/slack/events", "application/json", []byte(`{"type":"event_callback","event":{"type":"app_mention"`))
	if b := readBody(resp); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("malformed JSON: %d %s", resp.StatusCode, b)
	}
}

// TestRetriesAnsweredOnce delivers one event, then Slack's retries 1–3
// of it: one turn, one answer, three retries counted.
func TestRetriesAnsweredOnce(t *testing.T) {
	ce := &countingEngine{}
	e := newEnv(t, ce)
	root := e.nextTS()
	_, body := e.event(mention("UANN", "C1", root, "", "hi"))
	e.deliver(body)
	for _, n := range []string{"1", "2", "3"} {
		e.deliver(body, "X-Slack-Retry-Num", n, "X-Slack-Retry-Reason", "http_timeout")
	}
	e.waitFor("C1", root, "the answer", hasText("Hello Ann"))
	e.ad.Wait()
	if n := len(ce.Turns()); n != 1 {
		t.Errorf("%d turns for one event", n)
	}
	if n := len(e.fake.Messages("C1", root)); n != 1 {
		t.Errorf("%d answers:\n%s", n, dump(e.fake.Messages("C1", root)))
	}
	if n := e.metric("shopbot_slack_retries_seen_total", nil); n != 3 {
		t.Errorf("retries counted %v", n)
	}
	if n := e.metric("shopbot_slack_duplicates_ignored_total", nil); n != 3 {
		t.Errorf("duplicates counted %v", n)
	}
}

// TestBotMessagesIgnored: messages by bots — this one or others — and
// message subtypes start no turn, write nothing and get no answer.
func TestBotMessagesIgnored(t *testing.T) {
	ce := &countingEngine{}
	e := newEnv(t, ce)
	ts := e.nextTS()
	for name, ev := range map[string]map[string]any{
		"other bot mention": {"type": "app_mention", "user": "UOTHER", "bot_id": "B2", "text": "<@UBOT> buy all", "ts": ts, "channel": "C1"},
		"bot_message":       {"type": "message", "channel_type": "im", "subtype": "bot_message", "bot_id": "B2", "text": "hi", "ts": ts, "channel": "D1"},
		"own DM echo":       {"type": "message", "channel_type": "im", "user": slackfake.BotUserID, "text": "Hello", "ts": ts, "channel": "D1"},
		"own bot_id":        {"type": "message", "channel_type": "im", "user": "UANN", "bot_id": "BBOT", "text": "Hello", "ts": ts, "channel": "D1"},
		"edited":            {"type": "message", "channel_type": "im", "subtype": "message_changed", "ts": ts, "channel": "D1", "message": map[string]any{"user": "UANN", "text": "x"}},
		"channel message":   {"type": "message", "channel_type": "channel", "user": "UANN", "text": "hi all", "ts": ts, "channel": "C1"},
		"other thread":      {"type": "message", "channel_type": "channel", "user": "UANN", "text": "lunch?", "ts": ts, "thread_ts": "99.1", "channel": "C1"},
		"empty mention":     {"type": "app_mention", "user": "UANN", "text": "<@UBOT>", "ts": ts, "channel": "C1"},
	} {
		t.Log(name)
		e.postEvent(ev)
	}
	e.ad.Wait()
	if n := len(ce.Turns()); n != 0 {
		t.Errorf("turns started: %+v", ce.Turns())
	}
	if calls := e.fake.Calls("chat.postMessage", "chat.startStream"); len(calls) != 0 {
		t.Errorf("answered: %+v", calls)
	}
	if n := e.count("inbox"); n != 0 {
		t.Errorf("%d ignored events recorded", n)
	}
}

// TestDirectMessage: a DM is a personal conversation answered in the DM
// itself (no thread), the bot's mention markup and entities cleaned.
func TestDirectMessage(t *testing.T) {
	ce := &countingEngine{}
	e := newEnv(t, ce)
	e.postEvent(dm("UBOB", "D9", e.nextTS(), "shoes &lt;100 &amp; <https://example.com/x|this one>"))
	e.waitFor("D9", "", "the answer", hasText("Hello Bob"))
	tr := ce.Turns()[0]
	if tr.Shared || tr.ChatID != "D9" || tr.ThreadID != "" || tr.UserID != "UBOB" || tr.Text != "shoes <100 & this one" || tr.Channel != "slack" {
		t.Errorf("turn = %+v", tr)
	}
	if m := e.fake.Messages("D9", ""); len(m) != 1 || m[0].ThreadTS != "" || m[0].Streamed {
		t.Errorf("DM answer: %+v", m)
	}
}

// TestSlowModelAcksFast: with a model that takes 20 s, the event is still
// acknowledged at once; the answer comes later.
func TestSlowModelAcksFast(t *testing.T) {
	llm := llmtest.NewServer(t, llmtest.Step{Text: "Here you go.", Delay: 20 * time.Second})
	e := newEnv(t, nil, func(ec *engine.Config, _ *slackad.Config) {
		ec.Model = openai.New(openai.Config{BaseURL: llm.URL, Model: "test-model", MaxRetries: 1, RequestTimeout: 30 * time.Second})
	})
	root := e.nextTS()
	_, body := e.event(mention("UANN", "C1", root, "", "what do you recommend?"))
	start := time.Now()
	e.deliver(body)
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("ack took %s", took)
	}
	if !e.fake.Wait(patience, func() bool { return llm.Calls() == 1 }) {
		t.Fatal("the model was not called")
	}
	if msgs := e.fake.Messages("C1", root); len(msgs) != 0 {
		t.Errorf("answered before the model did: %s", dump(msgs))
	}
}

func TestCheckToken(t *testing.T) {
	e := newEnv(t, &countingEngine{})
	if err := e.ad.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	bad := newEnv(t, &countingEngine{}, func(_ *engine.Config, ac *slackad.Config) { ac.BotToken = "xoxb-wrong" })
	if err := bad.ad.Check(context.Background()); err == nil || !strings.Contains(err.Error(), "invalid_auth") {
		t.Errorf("wrong token: %v", err)
	}
}

// TestThreadReplies: once the assistant answers in a thread, replies there
// need no mention; a reply that mentions it is answered once (through
// app_mention, which Slack sends as well).
func TestThreadReplies(t *testing.T) {
	ce := &countingEngine{}
	e := newEnv(t, ce)
	root := e.nextTS()
	e.postEvent(mention("UANN", "C1", root, "", "hi"))
	e.waitFor("C1", root, "the answer", hasText("Hello Ann"))
	e.ad.Wait()
	// The fake engine holds no conversations: open the thread's as the
	// real engine does.
	if _, err := catalog.OpenConversation(context.Background(), e.db, catalog.ConversationKey{Channel: "slack", ChatID: "C1", ThreadID: root}, 0); err != nil {
		t.Fatal(err)
	}
	reply := func(user, text string) {
		ts := e.nextTS()
		e.postEvent(map[string]any{"type": "message", "channel_type": "channel", "user": user, "text": text, "ts": ts, "thread_ts": root, "channel": "C1"})
	}
	reply("UBOB", "and socks")
	reply("UBOB", "<@"+slackfake.BotUserID+"> and hats") // app_mention answers this one
	e.ad.Wait()
	turns := ce.Turns()
	if len(turns) != 2 || turns[1].Text != "and socks" || turns[1].ThreadID != root || !turns[1].Shared || turns[1].UserID != "UBOB" {
		t.Errorf("turns = %+v", turns)
	}
}
