package main

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"shopbot/adapters/slack/slackfake"
	"shopbot/adapters/telegram"
	"shopbot/adapters/telegram/telegramtest"
	"shopbot/bot/internal/servetest"
	"shopbot/catalog/catalogtest"
	"shopbot/engine/llmtest"
)

// readyUnderLoad bounds a start with the demo catalog under -race on a
// busy machine (27 s seen with 2 shared cores).
const readyUnderLoad = time.Minute

// statusz fetches and decodes /statusz.
func statusz(t *testing.T, s *server) (statusReport, map[string]channelState) {
	t.Helper()
	code, body := s.get(t, "/statusz")
	if code != http.StatusOK {
		t.Fatalf("/statusz = %d: %s", code, body)
	}
	var rep statusReport
	if err := json.Unmarshal([]byte(body), &rep); err != nil {
		t.Fatalf("/statusz: %v\n%s", err, body)
	}
	byName := map[string]channelState{}
	for _, c := range rep.Channels {
		byName[c.Channel] = c
	}
	return rep, byName
}

// channelsEnv configures Telegram, Slack (Events API) and the model
// against the fakes.
func channelsEnv(t *testing.T, tg *telegramtest.Server, sl *slackfake.Server, llm *llmtest.Server, slackToken string) map[string]string {
	return map[string]string{
		"DATABASE_URL":       catalogtest.SQLiteSeededURL(t),
		"TELEGRAM_BOT_TOKEN": servetest.TelegramToken, "TELEGRAM_API_URL": tg.URL,
		"SLACK_BOT_TOKEN": slackToken, "SLACK_SIGNING_SECRET": "status-secret", "SLACK_API_URL": sl.URL,
		"OPENAI_API_KEY": "sk-status-test", "OPENAI_BASE_URL": llm.URL, "OPENAI_MODEL": "gpt-4o-mini",
	}
}

// TestChannelsRefused: every platform refuses its credentials. The banner
// says so in sentences, the shop still starts and serves (/readyz 200, the
// web chat answers), /statusz and shopbot_channel_up show each error.
func TestChannelsRefused(t *testing.T) {
	tg := telegramtest.NewServer(t, "999:AAanother-bot-token_0123456789abcdef") // our token is not its: 401
	sl := slackfake.New(t)
	llm := llmtest.NewServer(t)
	llm.SetModels(http.StatusUnauthorized)
	llm.SetDefault(llmtest.Fail(http.StatusUnauthorized, "invalid_api_key"))
	s := startServer(t, channelsEnv(t, tg, sl, llm, "xoxb-not-the-fake-token"))
	s.waitReadyWithin(t, readyUnderLoad)
	out := s.stdout.String()
	for _, want := range []string{
		"telegram   error: the token was refused by Telegram (401 Unauthorized) — check TELEGRAM_BOT_TOKEN",
		"slack      error: the bot token was refused by Slack (invalid_auth) — check SLACK_BOT_TOKEN",
		"model      error: the API key was refused by the model server (401 Unauthorized) — check OPENAI_API_KEY",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("banner lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "sk-status-test") {
		t.Error("the banner shows the API key")
	}
	resp, err := http.Post(s.base+"/api/chat", "application/json", strings.NewReader(`{"session":"status-test-session-1","message":"running shoes"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("web chat with every channel refused = %d", resp.StatusCode)
	}
	rep, chans := statusz(t, s)
	if !strings.Contains(rep.Scope, "this process") || len(rep.Channels) != 3 {
		t.Errorf("/statusz = %+v", rep)
	}
	for _, name := range []string{"telegram", "slack", "model"} {
		c := chans[name]
		if !c.Configured || c.Connected || !strings.Contains(c.LastError, "refused") || c.LastErrorAt == nil || c.LastCheckedAt == nil {
			t.Errorf("/statusz %s = %+v", name, c)
		}
	}
	_, metrics := s.get(t, "/metrics")
	for _, want := range []string{`shopbot_channel_up{channel="telegram"} 0`, `shopbot_channel_up{channel="slack"} 0`, `shopbot_channel_up{channel="model"} 0`} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// TestChannelsConnected: the platforms accept the credentials; the banner
// names the bot, the workspace and the model, and a Telegram update
// received shows in /statusz.
func TestChannelsConnected(t *testing.T) {
	tg := telegramtest.NewServer(t, servetest.TelegramToken)
	sl := slackfake.New(t)
	llm := llmtest.NewServer(t)
	llm.SetModels(http.StatusOK, "gpt-4o-mini", "gpt-4o")
	s := startServer(t, channelsEnv(t, tg, sl, llm, slackfake.Token))
	s.waitReadyWithin(t, readyUnderLoad)
	out := s.stdout.String()
	for _, want := range []string{
		"telegram   on (long polling) · @shop_test_bot",
		"slack      on (POST /slack/events, /slack/interactions, /slack/commands) · workspace Fake Workspace, bot @shopbot",
		"model      on (gpt-4o-mini at " + llm.URL + ") · gpt-4o-mini\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("banner lacks %q:\n%s", want, out)
		}
	}
	_, chans := statusz(t, s)
	if c := chans["telegram"]; !c.Connected || c.Name != "@shop_test_bot" || c.LastError != "" || c.LastUpdateAt != nil {
		t.Errorf("/statusz telegram before any update = %+v", c)
	}
	if c := chans["model"]; !c.Connected || c.Name != "gpt-4o-mini" {
		t.Errorf("/statusz model = %+v", c)
	}
	tg.Push(telegramtest.Text(telegramtest.User(77, "Zed"), "/cart"))
	tg.Wait(t, 15*time.Second, "the cart", func(calls []telegramtest.Call) bool {
		return len(filterSent(calls, "77")) > 0
	})
	if _, chans = statusz(t, s); chans["telegram"].LastUpdateAt == nil {
		t.Errorf("/statusz telegram after an update = %+v", chans["telegram"])
	}
	_, metrics := s.get(t, "/metrics")
	if !strings.Contains(metrics, `shopbot_channel_up{channel="telegram"} 1`) || !strings.Contains(metrics, `shopbot_channel_up{channel="model"} 1`) {
		t.Errorf("/metrics lacks the channels up")
	}
}

func filterSent(calls []telegramtest.Call, chat string) []telegramtest.Call {
	var out []telegramtest.Call
	for _, c := range calls {
		if c.Method == "sendMessage" && c.Params["chat_id"] == chat {
			out = append(out, c)
		}
	}
	return out
}

// TestMalformedTelegramToken: a token of the wrong shape is shown as an
// error without asking Telegram, and the shop starts without it.
func TestMalformedTelegramToken(t *testing.T) {
	tg := telegramtest.NewServer(t, "123:short")
	s := startServer(t, map[string]string{
		"DATABASE_URL":       catalogtest.SQLiteSeededURL(t),
		"TELEGRAM_BOT_TOKEN": "123:short", "TELEGRAM_API_URL": tg.URL,
	})
	s.waitReadyWithin(t, readyUnderLoad)
	if want := "telegram   error: TELEGRAM_BOT_TOKEN is not a bot token"; !strings.Contains(s.stdout.String(), want) {
		t.Errorf("banner lacks %q:\n%s", want, s.stdout)
	}
	_, chans := statusz(t, s)
	if c := chans["telegram"]; !c.Configured || c.Connected || !strings.Contains(c.LastError, "not a bot token") || c.LastCheckedAt != nil {
		t.Errorf("/statusz telegram = %+v", c)
	}
	if c := chans["slack"]; c.Configured || c.Off != "SLACK_BOT_TOKEN unset" {
		t.Errorf("/statusz slack = %+v", c)
	}
	if calls := tg.Calls(); len(calls) != 0 {
		t.Errorf("the malformed token was sent to Telegram: %s", telegramtest.Dump(calls))
	}
}

func TestTelegramTokenShape(t *testing.T) {
	for token, ok := range map[string]bool{
		"123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw": true,
		"4242:AAserve-test-token_0123456789abcdefgh":   true,
		"123:short":                                    false,
		"AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw":           false,
		"bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALD": false,
		"123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDs w": false,
		" 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsa": false,
	} {
		if err := telegram.CheckToken(token); (err == nil) != ok {
			t.Errorf("CheckToken(%q) = %v", token, err)
		}
	}
}

// TestModelProbe: GET /models answering 404 is a server without the list,
// reachable; 401 and 403 are a refused key; a listed model is named, one
// not listed is pointed out.
func TestModelProbe(t *testing.T) {
	for _, tc := range []struct {
		status          int
		ids             []string
		name, errorPart string
	}{
		{http.StatusOK, []string{"gpt-4o-mini"}, "gpt-4o-mini", ""},
		{http.StatusOK, []string{"llama3", "qwen"}, "gpt-4o-mini (not among the server's 2 models — check OPENAI_MODEL or the panel's Model setting)", ""},
		{http.StatusNotFound, nil, "gpt-4o-mini (the server does not list its models)", ""},
		{http.StatusUnauthorized, nil, "", "refused by the model server (401 Unauthorized) — check OPENAI_API_KEY"},
		{http.StatusForbidden, nil, "", "refused by the model server (403 Forbidden)"},
		{http.StatusInternalServerError, nil, "", "could not be reached"},
	} {
		llm := llmtest.NewServer(t)
		llm.SetModels(tc.status, tc.ids...)
		cfg := Config{OpenAIAPIKey: "sk-probe-key", OpenAIBaseURL: llm.URL, OpenAIModel: "gpt-4o-mini"}
		p := modelProbe(&cfg, nil)
		name, err := p.check(context.Background())
		switch {
		case tc.errorPart == "" && (err != nil || name != tc.name):
			t.Errorf("%d: %q, %v", tc.status, name, err)
		case tc.errorPart != "" && (err == nil || !strings.Contains(p.explain(err), tc.errorPart) || strings.Contains(p.explain(err), "sk-probe-key")):
			t.Errorf("%d: err %v; explained %q", tc.status, err, p.explain(err))
		}
		if n := llm.ModelListCalls(); n != 1 {
			t.Errorf("%d: %d GET /models, want 1 (no retries)", tc.status, n)
		}
	}
	if p := modelProbe(&Config{OpenAIModel: "gpt-4o-mini"}, nil); p.check != nil || !strings.Contains(p.off, "offline planner") {
		t.Errorf("probe without a model = %+v", p)
	}
}

// TestBoardChecksPeriodically: a channel refused at start and accepted at
// a later tick turns connected; the metric follows; an adapter that
// stopped stays disconnected whatever a check says; receipts are kept.
func TestBoardChecksPeriodically(t *testing.T) {
	reg := prometheus.NewRegistry()
	channelUp := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "shopbot_channel_up", Help: "test"}, []string{"channel"})
	reg.MustRegister(channelUp)
	clock := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	b := newChannelBoard(channelUp, func() time.Time { return clock })
	answers := make(chan error, 10)
	answers <- &telegram.TokenRefusedError{Status: "401 Unauthorized"}
	answers <- nil
	answers <- nil
	answers <- nil
	b.add(channelProbe{name: "telegram", mode: "long polling", explain: explainTelegram,
		check: func(context.Context) (string, error) { return "@bot", <-answers }})
	b.add(channelProbe{name: "slack", off: "SLACK_BOT_TOKEN unset"})
	up := func() float64 { return testutil.ToFloat64(channelUp.WithLabelValues("telegram")) }

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ticks := make(chan time.Time)
	<-b.start(ctx, ticks)
	st := b.snapshot()[0]
	if st.Connected || !strings.Contains(st.bannerLine(), "error: the token was refused by Telegram (401 Unauthorized)") || up() != 0 {
		t.Fatalf("after start: %+v, up %v", st, up())
	}
	ticks <- clock // the second check: accepted
	ticks <- clock // received once the second round is done
	if st = b.snapshot()[0]; !st.Connected || st.Name != "@bot" || st.bannerLine() != "on (long polling) · @bot" || up() != 1 {
		t.Fatalf("after a tick: %+v, up %v", st, up())
	}
	if st.LastError == "" {
		t.Error("the last error is forgotten once a check succeeds")
	}
	b.receiver("telegram")(clock.Add(time.Minute))
	b.receiver("telegram")(clock) // older: ignored
	b.stopped("telegram", "the adapter stopped")
	ticks <- clock
	ticks <- clock
	if st = b.snapshot()[0]; st.Connected || up() != 0 || !st.LastUpdateAt.Equal(clock.Add(time.Minute)) || st.LastError != "the adapter stopped" {
		t.Fatalf("after stopping: %+v, up %v", st, up())
	}
	if sl := b.snapshot()[1]; sl.bannerLine() != "off (SLACK_BOT_TOKEN unset)" || sl.LastCheckedAt != nil {
		t.Errorf("slack = %+v", sl)
	}
	if n, _ := testutil.GatherAndCount(reg, "shopbot_channel_up"); n != 1 {
		t.Errorf("shopbot_channel_up has %d series, want telegram's only", n)
	}
}

// TestBoardStartIsBounded: a channel that does not answer delays the
// first round by startCheckTimeout at most and is shown as not answering.
func TestBoardStartIsBounded(t *testing.T) {
	b := newChannelBoard(nil, time.Now)
	b.add(channelProbe{name: "slack", explain: explainSlack, check: func(ctx context.Context) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := time.Now()
	<-b.start(ctx, nil)
	if took := time.Since(started); took > startCheckTimeout+2*time.Second {
		t.Errorf("the first round took %s", took)
	}
	if st := b.snapshot()[0]; !strings.Contains(st.LastError, "Slack did not answer in time") {
		t.Errorf("slack = %+v", st)
	}
}
