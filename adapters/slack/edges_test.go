package slack_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	slackad "shopbot/adapters/slack"
	"shopbot/adapters/slack/slackfake"
	"shopbot/catalog/catalogtest"
	"shopbot/engine"
)

const sorry = "something went wrong"

// TestBadBytesInSlackText: a DM whose text holds NUL and control
// characters, from a user whose Slack name holds a NUL, is answered by the
// real engine, and so is the next one — on SQLite and on Postgres.
func TestBadBytesInSlackText(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		e := newEnvOn(t, db, nil)
		e.fake.AddUser("UNUL", "Nu\x00ll\x07", false)
		for i, text := range []string{"sneakers\x00 please\x1b", "cart\x00"} {
			e.postEvent(dm("UNUL", "D5", e.nextTS(), text))
			e.waitFor("D5", "", fmt.Sprintf("answer %d", i+1), func(slackfake.Message) bool {
				return len(e.fake.Messages("D5", "")) > i
			})
		}
		for _, m := range e.fake.Messages("D5", "") {
			if strings.Contains(text(m), sorry) {
				t.Errorf("answered %q", text(m))
			}
		}
	})
}

// TestSlackBadIDs: an event_id or trigger_id holding a NUL gets a 400 and
// records nothing (it used to fail the insert: a 500, retried by Slack).
func TestSlackBadIDs(t *testing.T) {
	e := newEnv(t, &countingEngine{})
	body := `{"type":"event_callback","team_id":"T1","event_id":"Ev\u00001","event":{"type":"message","channel_type":"im","user":"UANN","text":"hi","ts":"1.1","channel":"D1"}}`
	if code, b := signedPost(t, e, "/slack/events", "application/json", body); code != http.StatusBadRequest {
		t.Errorf("event: %d %s", code, b)
	}
	payload := `{"type":"block_actions","user":{"id":"UANN"},"trigger_id":"tr\u00001","channel":{"id":"D1"},"actions":[{"type":"button","value":"cart"}]}`
	if code, b := signedPost(t, e, "/slack/interactions", "application/x-www-form-urlencoded", url.Values{"payload": {payload}}.Encode()); code != http.StatusBadRequest {
		t.Errorf("interaction: %d %s", code, b)
	}
	if n := e.count("inbox"); n != 0 {
		t.Errorf("%d recorded", n)
	}
}

// TestSlackBodyTooLarge: a signed body over 1 MB gets a 413.
func TestSlackBodyTooLarge(t *testing.T) {
	e := newEnv(t, &countingEngine{})
	body := `{"type":"event_callback","event_id":"Ev1","event":{"text":"` + strings.Repeat("a", 1<<20) + `"}}`
	if code, b := signedPost(t, e, "/slack/events", "application/json", body); code != http.StatusRequestEntityTooLarge {
		t.Errorf("%d %s", code, b)
	}
}

// signedPost sends a correctly signed request and returns the status.
func signedPost(t testing.TB, e *env, path, contentType, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().Unix()
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(now, 10))
	req.Header.Set("X-Slack-Signature", slackad.Sign(secret, now, []byte(body)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// fuzzEnvs are the adapter with the real engine on SQLite and Postgres.
func fuzzEnvs(f *testing.F) []*env {
	pg, _ := catalogtest.Postgres(f)
	return []*env{newEnv(f, nil), newEnvOn(f, pg, nil)}
}

// noNUL fails t when the SQLite inbox holds a NUL (Postgres cannot).
func noNUL(t *testing.T, e *env, input string) {
	var n int
	err := e.db.NewRaw(`SELECT count(*) FROM inbox WHERE instr(key || chat || payload, char(0)) > 0`).Scan(context.Background(), &n)
	if err != nil || n != 0 {
		t.Fatalf("NUL stored in %d inbox rows (%v) after %q", n, err, input)
	}
}

// FuzzSlackEvents: a signed Events API body with any bytes in the text,
// user and event id is never answered 5xx, and no NUL is stored.
func FuzzSlackEvents(f *testing.F) {
	f.Add("hi", "UANN", "Ev1")
	f.Add(`sneakers\u0000`, `UA\u0000NN`, `Ev\u00002`)
	f.Add("bad \xff\xfe utf8", "U\xffX", "Ev\xff3")
	f.Add(`\u0007\u001b[2J`, "UBOB", `","type":"x`)
	f.Add("x\x00y", "UANN", "Ev5")
	envs := fuzzEnvs(f)
	var n int
	f.Fuzz(func(t *testing.T, text, user, id string) {
		n++
		body := `{"type":"event_callback","team_id":"T1","event_id":"` + id + strconv.Itoa(n) + `","event":{"type":"message","channel_type":"im","user":"` +
			user + `","text":"` + text + `","ts":"` + strconv.Itoa(n) + `.1","channel":"DF` + strconv.Itoa(n) + `"}}`
		for _, e := range envs {
			if code, b := signedPost(t, e, "/slack/events", "application/json", body); code >= 500 {
				t.Fatalf("%q: %d %s", body, code, b)
			}
		}
		noNUL(t, envs[0], body)
	})
}

// FuzzSlackInteractions: a signed interactions body with any bytes in the
// payload is never answered 5xx, and no NUL is stored.
func FuzzSlackInteractions(f *testing.F) {
	f.Add(`{"type":"block_actions","user":{"id":"UANN"},"trigger_id":"tr1","channel":{"id":"D1"},"actions":[{"type":"button","value":"cart"}]}`)
	f.Add(`{"type":"block_actions","user":{"id":"UA\u0000"},"trigger_id":"tr\u00002","channel":{"id":"D\u00001"},"actions":[{"type":"button","value":"add|SHO\u0000|1"}]}`)
	f.Add("{\"type\":\"block_actions\",\"user\":{\"id\":\"U\xff\"},\"trigger_id\":\"tr3\xff\",\"channel\":{\"id\":\"D1\"},\"actions\":[{\"type\":\"button\",\"value\":\"det|\xff\"}]}")
	f.Add("\x00")
	envs := fuzzEnvs(f)
	f.Fuzz(func(t *testing.T, payload string) {
		body := url.Values{"payload": {payload}}.Encode()
		for _, e := range envs {
			if code, b := signedPost(t, e, "/slack/interactions", "application/x-www-form-urlencoded", body); code >= 500 {
				t.Fatalf("%q: %d %s", payload, code, b)
			}
		}
		noNUL(t, envs[0], payload)
	})
}

// downEngine is an engine whose database is down: it says sorry once
// through the sink and returns ErrUnavailable, as engine.Handle does.
type downEngine struct{}

func (downEngine) Handle(ctx context.Context, t engine.Turn, sink engine.Sink) error {
	_ = sink.Send(ctx, engine.Event{Kind: engine.EventError, Text: engine.PoliteMessage(nil, t.Locale)})
	return fmt.Errorf("engine: open session: %w", engine.ErrUnavailable)
}

// TestSlackPoliteOnceWhenDatabaseDown: a turn that fails because the
// database is down leaves exactly one polite message; a request that
// cannot even be recorded gets a 503 with Retry-After (Slack retries).
func TestSlackPoliteOnceWhenDatabaseDown(t *testing.T) {
	e := newEnv(t, downEngine{})
	e.postEvent(dm("UANN", "D6", e.nextTS(), "sneakers"))
	handled := func() bool {
		n, err := e.db.NewSelect().Table("inbox").Where("handled_at IS NOT NULL").Count(context.Background())
		return err == nil && n == 1
	}
	if !e.fake.Wait(patience, handled) {
		t.Fatal("the turn did not finish")
	}
	if ms := e.fake.Messages("D6", ""); len(ms) != 1 || !strings.Contains(text(ms[0]), sorry) {
		t.Errorf("messages:\n%s", dump(ms))
	}
	e.db.Close()
	_, body := e.event(dm("UANN", "D6", e.nextTS(), "again"))
	resp := e.send("/slack/events", "application/json", body)
	if b := readBody(resp); resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("database closed: %d %s", resp.StatusCode, b)
	}
}
