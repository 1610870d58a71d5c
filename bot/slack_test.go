package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	slackad "shopbot/adapters/slack"
	"shopbot/adapters/slack/slackfake"
	"shopbot/catalog/catalogtest"
)

// TestSlackThroughServe sends a signed mention to a running serve and
// expects the answer in the mention's thread of the fake Slack API;
// unsigned requests are refused.
func TestSlackThroughServe(t *testing.T) {
	fake := slackfake.New(t)
	fake.AddUser("UANN", "Ann", false)
	const secret = "serve-test-secret"
	s := startServer(t, map[string]string{
		"DATABASE_URL":    catalogtest.SQLiteSeededURL(t),
		"SLACK_BOT_TOKEN": slackfake.Token, "SLACK_SIGNING_SECRET": secret, "SLACK_API_URL": fake.URL,
		"SLACK_ORDERS_CHANNEL": "CORDERS",
	})
	s.waitReady(t)
	if !strings.Contains(s.stdout.String(), "slack      on (POST /slack/events") {
		t.Errorf("startup output:\n%s", s.stdout)
	}
	body, _ := json.Marshal(map[string]any{
		"type": "event_callback", "team_id": "T1", "event_id": "Ev1", "event_time": time.Now().Unix(),
		"event": map[string]any{"type": "app_mention", "user": "UANN", "text": "<@UBOT> waterproof jacket",
			"ts": "1700.0001", "channel": "C1", "event_ts": "1700.0001"},
	})
	post := func(sign bool) int {
		req, _ := http.NewRequest(http.MethodPost, s.base+"/slack/events", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		if sign {
			now := time.Now().Unix()
			req.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(now, 10))
			req.Header.Set("X-Slack-Signature", slackad.Sign(secret, now, body))
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post(false); code != http.StatusUnauthorized {
		t.Fatalf("unsigned event: %d", code)
	}
	if code := post(true); code != http.StatusOK {
		t.Fatalf("signed event: %d", code)
	}
	if !fake.Wait(10*time.Second, func() bool {
		for _, m := range fake.Messages("C1", "1700.0001") {
			if strings.Contains(m.Content(), "Add to cart") {
				return true
			}
		}
		return false
	}) {
		t.Fatalf("no threaded answer with cards: %+v", fake.Messages("C1", ""))
	}
	_, metrics := s.get(t, "/metrics")
	if !strings.Contains(metrics, `shopbot_slack_events_received_total{type="app_mention"} 1`) {
		t.Errorf("metrics lack the Slack event:\n%s", metrics)
	}
}

func TestSlackConfigNeedsSecretOrAppToken(t *testing.T) {
	err := run(context.Background(), []string{"serve"}, envFunc(map[string]string{"SLACK_BOT_TOKEN": "xoxb-secret-value"}), nil, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "SLACK_SIGNING_SECRET") || exitCode(err) != 2 {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "xoxb-secret-value") {
		t.Errorf("error shows the token: %v", err)
	}
}

// TestAdminURL: links in Slack messages use PUBLIC_URL when set, else the
// listen address, with a wildcard host replaced by localhost.
func TestAdminURL(t *testing.T) {
	for _, tc := range []struct{ public, addr, want string }{
		{"https://shop.example.com", "0.0.0.0:8080", "https://shop.example.com"},
		{"", "0.0.0.0:8080", "http://localhost:8080"},
		{"", "10.0.0.5:9000", "http://10.0.0.5:9000"},
	} {
		if got := adminURL(&Config{PublicURL: tc.public, HTTPAddr: tc.addr}); got != tc.want {
			t.Errorf("PUBLIC_URL %q, HTTP_ADDR %q: %q, want %q", tc.public, tc.addr, got, tc.want)
		}
	}
	cfg, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), nil, envFunc(map[string]string{"PUBLIC_URL": "https://shop.example.com/"}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.PublicURL != "https://shop.example.com" {
		t.Errorf("PUBLIC_URL kept as %q, want the trailing slash trimmed", cfg.PublicURL)
	}
}
