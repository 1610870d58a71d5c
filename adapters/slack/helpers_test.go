package slack_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/adapters"
	slackad "shopbot/adapters/slack"
	"shopbot/adapters/slack/slackfake"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine"
)

const secret = "8f742231b10e8888abcd99yyyzzz85a5"

// patience is how long tests wait for an answer: generous, since shared
// machines under the race detector can be slow; a passing run waits only
// as long as the answer takes.
const patience = 30 * time.Second

// env is the adapter on a demo shop, behind an HTTP server, talking to a
// fake Slack API.
type env struct {
	t       testing.TB
	db      *bun.DB
	fake    *slackfake.Server
	ad      *slackad.Adapter
	srv     *httptest.Server
	reg     *prometheus.Registry
	hub     *adapters.Hub
	eventID atomic.Int64
	ts      atomic.Int64
	ecfg    engine.Config
	acfg    slackad.Config
	ctx     context.Context // the running adapter's; cancelled by stop
	stop    context.CancelFunc

	mu      sync.Mutex
	handled []time.Duration // how long each request took in the handler
}

type option func(*engine.Config, *slackad.Config)

// newEnv starts everything on SQLite; h replaces the engine when not nil.
func newEnv(t testing.TB, h slackad.Handler, opts ...option) *env {
	t.Helper()
	if h == nil { // the real engine shops in a copy of the demo catalog
		return newEnvFor(t, catalogtest.SQLiteDemo(t), h, opts...)
	}
	return newEnvFor(t, catalogtest.SQLite(t), h, opts...)
}

// newEnvOn is newEnv on the given database.
func newEnvOn(t testing.TB, db *bun.DB, h slackad.Handler, opts ...option) *env {
	t.Helper()
	if h == nil { // the real engine shops in the demo catalog
		if _, err := demo.Load(context.Background(), db); err != nil {
			t.Fatal(err)
		}
	}
	return newEnvFor(t, db, h, opts...)
}

// newEnvFor is newEnvOn on a database ready for h (with h nil, holding
// the demo catalog).
func newEnvFor(t testing.TB, db *bun.DB, h slackad.Handler, opts ...option) *env {
	t.Helper()
	e := &env{t: t, db: db, fake: slackfake.New(t), hub: adapters.NewHub()}
	e.ts.Store(1_600_000_000)
	ecfg := engine.Config{DB: db, Search: searchtest.NewDatabase(db), Notifier: e.hub}
	acfg := slackad.Config{
		BotToken: slackfake.Token, SigningSecret: secret, APIURL: e.fake.URL, DB: db,
		AdminURL: "https://shop.example.com", OrdersChannel: "CORDERS",
		Throttle: 200 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(tlog{t}, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	if _, fuzz := t.(*testing.F); fuzz { // a fuzz target may not log through f
		acfg.Logger = slog.New(slog.DiscardHandler)
	}
	for _, o := range opts {
		o(&ecfg, &acfg)
	}
	e.ecfg, e.acfg = ecfg, acfg
	e.start(h)
	e.fake.AddUser("UANN", "Ann", false)
	e.fake.AddUser("UBOB", "Bob", false)
	return e
}

// start runs an adapter answered by h (the real engine when nil) behind
// a new HTTP server. The real engine is its Shop (App Home, thread
// lookups) either way.
func (e *env) start(h slackad.Handler) {
	t := e.t
	ecfg := e.ecfg
	ecfg.Registry = prometheus.NewRegistry()
	eng, err := engine.New(ecfg)
	if err != nil {
		t.Fatal(err)
	}
	if h == nil {
		h = eng
	}
	acfg := e.acfg
	acfg.Engine, acfg.Shop = h, eng
	e.reg = prometheus.NewRegistry() // the metrics of the adapter running now
	acfg.Registry = e.reg
	ctx, cancel := context.WithCancel(context.Background())
	ad, err := slackad.New(ctx, acfg)
	if err != nil {
		t.Fatal(err)
	}
	e.ad, e.ctx, e.stop = ad, ctx, cancel
	if m := ad.Merchants(); m != nil {
		e.hub.Merchants(m)
	}
	e.hub.Shoppers("slack", ad.Shoppers())
	mux := http.NewServeMux()
	events, interactions, commands := ad.Endpoints()
	mux.Handle("POST /slack/events", e.timed(events))
	mux.Handle("POST /slack/interactions", e.timed(interactions))
	mux.Handle("POST /slack/commands", e.timed(commands))
	srv := httptest.NewServer(mux)
	e.srv = srv
	t.Cleanup(func() {
		cancel()
		ad.Wait()
		srv.Close()
	})
}

// restart stops the adapter as a crash or a deploy would (its turns in
// flight are cancelled) and starts another on the same database and fake
// Slack, answered by h (the real engine when nil); it resumes what was
// left unhandled before it serves.
func (e *env) restart(h slackad.Handler) {
	e.t.Helper()
	e.stop()
	e.ad.Wait()
	e.start(h)
	if err := e.ad.Resume(e.ctx); err != nil {
		e.t.Fatal(err)
	}
}

// timed records how long h takes to answer.
func (e *env) timed(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		h.ServeHTTP(w, r)
		e.mu.Lock()
		e.handled = append(e.handled, time.Since(start))
		e.mu.Unlock()
	})
}

// tlog writes log lines to t.Log.
type tlog struct{ t testing.TB }

func (w tlog) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// nextTS returns a fresh Slack message timestamp.
func (e *env) nextTS() string { return fmt.Sprintf("%d.000200", e.ts.Add(1)) }

// send posts a signed request; headers are extra headers (k, v, …).
func (e *env) send(path, contentType string, body []byte, headers ...string) *http.Response {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+path, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", contentType)
	now := time.Now().Unix()
	req.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(now, 10))
	req.Header.Set("X-Slack-Signature", slackad.Sign(secret, now, body))
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp
}

func readBody(resp *http.Response) string {
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// event wraps an inner event in an event_callback envelope.
func (e *env) event(inner map[string]any) (id string, body []byte) {
	id = fmt.Sprintf("Ev%06d", e.eventID.Add(1))
	body, _ = json.Marshal(map[string]any{
		"token": "legacy", "team_id": "T1", "api_app_id": "A1", "type": "event_callback",
		"event_id": id, "event_time": time.Now().Unix(), "event": inner,
	})
	return id, body
}

// postEvent delivers an event and expects 200.
func (e *env) postEvent(inner map[string]any, headers ...string) []byte {
	e.t.Helper()
	_, body := e.event(inner)
	e.deliver(body, headers...)
	return body
}

func (e *env) deliver(body []byte, headers ...string) {
	e.t.Helper()
	resp := e.send("/slack/events", "application/json", body, headers...)
	if b := readBody(resp); resp.StatusCode != http.StatusOK {
		e.t.Fatalf("event: %d %s", resp.StatusCode, b)
	}
}

// mention is an app_mention of the bot in channel; thread may be "".
func mention(user, channel, ts, thread, text string) map[string]any {
	ev := map[string]any{"type": "app_mention", "user": user, "text": "<@" + slackfake.BotUserID + "> " + text,
		"ts": ts, "channel": channel, "event_ts": ts}
	if thread != "" {
		ev["thread_ts"] = thread
	}
	return ev
}

// dm is a direct message to the bot.
func dm(user, channel, ts, text string) map[string]any {
	return map[string]any{"type": "message", "channel_type": "im", "user": user, "text": text,
		"ts": ts, "channel": channel, "event_ts": ts}
}

// press delivers a block_actions payload for a button of msg.
func (e *env) press(user string, msg slackfake.Message, value string) {
	e.t.Helper()
	blockID, actionID := findButton(e.t, msg, value)
	container := map[string]any{"type": "message", "message_ts": msg.TS, "channel_id": msg.Channel, "is_ephemeral": false}
	if msg.ThreadTS != "" {
		container["thread_ts"] = msg.ThreadTS
	}
	payload, _ := json.Marshal(map[string]any{
		"type": "block_actions", "user": map[string]any{"id": user, "username": strings.ToLower(user), "team_id": "T1"},
		"api_app_id": "A1", "token": "legacy", "container": container, "trigger_id": "tr-" + e.nextTS(),
		"team": map[string]any{"id": "T1"}, "channel": map[string]any{"id": msg.Channel, "name": "shopping"},
		"message":      map[string]any{"type": "message", "ts": msg.TS, "thread_ts": msg.ThreadTS, "text": msg.Text},
		"response_url": e.fake.ResponseURL("r1"),
		"actions": []map[string]any{{"type": "button", "block_id": blockID, "action_id": actionID, "value": value,
			"action_ts": e.nextTS(), "text": map[string]any{"type": "plain_text", "text": "x"}}},
	})
	body := []byte(url.Values{"payload": {string(payload)}}.Encode())
	resp := e.send("/slack/interactions", "application/x-www-form-urlencoded", body)
	if b := readBody(resp); resp.StatusCode != http.StatusOK {
		e.t.Fatalf("interaction: %d %s", resp.StatusCode, b)
	}
}

// findButton returns the block and action ids of the button with value.
func findButton(t testing.TB, msg slackfake.Message, value string) (string, string) {
	t.Helper()
	for _, b := range msg.Blocks {
		var els []any
		if acc, ok := b["accessory"].(map[string]any); ok {
			els = append(els, acc)
		}
		if e, ok := b["elements"].([]any); ok {
			els = append(els, e...)
		}
		for _, el := range els {
			if m, ok := el.(map[string]any); ok && m["type"] == "button" && m["value"] == value {
				id, _ := b["block_id"].(string)
				return id, m["action_id"].(string)
			}
		}
	}
	t.Fatalf("no button %q in message %s: %v", value, msg.TS, msg.Blocks)
	return "", ""
}

// waitFor polls the thread until some message satisfies ok.
func (e *env) waitFor(channel, thread string, what string, ok func(m slackfake.Message) bool) slackfake.Message {
	e.t.Helper()
	var found slackfake.Message
	if !e.fake.Wait(patience, func() bool {
		for _, m := range e.fake.Messages(channel, thread) {
			if ok(m) {
				found = m
				return true
			}
		}
		return false
	}) {
		e.t.Fatalf("no %s in %s/%s; messages:\n%s", what, channel, thread, dump(e.fake.Messages(channel, thread)))
	}
	return found
}

// text is everything a user reads in a message: its text and its blocks.
func text(m slackfake.Message) string { return m.Content() }

func hasText(s string) func(slackfake.Message) bool {
	return func(m slackfake.Message) bool { return strings.Contains(text(m), s) }
}

func dump(ms []slackfake.Message) string {
	var b strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&b, "  %s (thread %s, updates %d): %.400s\n", m.TS, m.ThreadTS, m.Updates, text(m))
	}
	return b.String()
}

// count returns the rows of a table.
func (e *env) count(table string) int {
	e.t.Helper()
	n, err := e.db.NewSelect().Table(table).Count(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return int(n)
}

// metric sums the samples of a metric whose labels include labels.
func (e *env) metric(name string, labels map[string]string) float64 {
	e.t.Helper()
	mfs, err := e.reg.Gather()
	if err != nil {
		e.t.Fatal(err)
	}
	var sum float64
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
	next:
		for _, m := range mf.GetMetric() {
			have := map[string]string{}
			for _, l := range m.GetLabel() {
				have[l.GetName()] = l.GetValue()
			}
			for k, v := range labels {
				if have[k] != v {
					continue next
				}
			}
			if c := m.GetCounter(); c != nil {
				sum += c.GetValue()
			}
		}
	}
	return sum
}
