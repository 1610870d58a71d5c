package slack_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	slackad "shopbot/adapters/slack"
)

// TestUnsignedRequestsRejected sends each endpoint a request with a bad
// signature, a stale timestamp, missing headers and a signature made with
// another secret: every one gets 401 and nothing is written or sent.
func TestUnsignedRequestsRejected(t *testing.T) {
	e := newEnv(t, nil)
	_, event := e.event(mention("UANN", "C1", e.nextTS(), "", "running shoes"))
	interaction := []byte(url.Values{"payload": {`{"type":"block_actions","user":{"id":"UANN"},"trigger_id":"t1","channel":{"id":"C1"},"actions":[{"value":"add|SHO-RUN-001|1"}]}`}}.Encode())
	command := []byte(url.Values{"command": {"/shop"}, "text": {"shoes"}, "user_id": {"UANN"}, "trigger_id": {"t2"},
		"response_url": {e.fake.ResponseURL("r")}, "channel_id": {"C1"}}.Encode())
	now := time.Now().Unix()
	stale := now - 6*60
	for _, req := range []struct {
		path, ctype string
		body        []byte
	}{
		{"/slack/events", "application/json", event},
		{"/slack/interactions", "application/x-www-form-urlencoded", interaction},
		{"/slack/commands", "application/x-www-form-urlencoded", command},
	} {
		for name, headers := range map[string][]string{
			"bad signature":   {"X-Slack-Signature", "v0=" + strings.Repeat("ab", 32)},
			"not hex":         {"X-Slack-Signature", "v0=zz"},
			"other secret":    {"X-Slack-Signature", slackad.Sign("another-secret", now, req.body)},
			"stale timestamp": {"X-Slack-Request-Timestamp", strconv.FormatInt(stale, 10), "X-Slack-Signature", slackad.Sign(secret, stale, req.body)},
			"future":          {"X-Slack-Request-Timestamp", strconv.FormatInt(now+6*60, 10), "X-Slack-Signature", slackad.Sign(secret, now+6*60, req.body)},
			"no signature":    {"X-Slack-Signature", ""},
			"no timestamp":    {"X-Slack-Request-Timestamp", ""},
			"no headers":      {"X-Slack-Signature", "", "X-Slack-Request-Timestamp", ""},
		} {
			resp := e.send(req.path, req.ctype, req.body, headers...)
			if b := readBody(resp); resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s %s: %d %s", req.path, name, resp.StatusCode, b)
			}
		}
	}
	e.ad.Wait() // work is queued before the ack, so any would be done now
	for _, table := range []string{"inbox", "customers", "conversations", "messages", "carts"} {
		if n := e.count(table); n != 0 {
			t.Errorf("%d rows in %s after rejected requests", n, table)
		}
	}
	if calls := e.fake.Calls(); len(calls) != 0 {
		t.Errorf("Slack API called: %+v", calls)
	}
	if n := e.metric("shopbot_slack_signature_failures_total", nil); n != 24 {
		t.Errorf("signature failures counted: %v, want 24", n)
	}
}
