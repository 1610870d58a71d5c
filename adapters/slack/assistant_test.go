package slack_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	slackad "shopbot/adapters/slack"
	"shopbot/adapters/slack/slackfake"
	"shopbot/catalog"
	"shopbot/engine"
)

// assistantStarted is Slack's assistant_thread_started event.
func assistantStarted(user, channel, thread string) map[string]any {
	return map[string]any{"type": "assistant_thread_started", "event_ts": thread,
		"assistant_thread": map[string]any{"user_id": user, "channel_id": channel, "thread_ts": thread,
			"context": map[string]any{"channel_id": "CTEAM", "team_id": "T1", "enterprise_id": ""}}}
}

// threadDM is a message in a thread of the app's DM: an assistant thread.
func threadDM(user, channel, ts, thread, text string) map[string]any {
	ev := dm(user, channel, ts, text)
	ev["thread_ts"] = thread
	return ev
}

// TestAssistantThreadSuggestsPrompts: opening the assistant suggests the
// product of the shopper's last order, then the shop's categories, in
// assistant.threads.setSuggestedPrompts's wire format.
func TestAssistantThreadSuggestsPrompts(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	ann, err := catalog.ResolveCustomer(ctx, e.db, catalog.Identity{Channel: "slack", PlatformUserID: "UANN", DisplayName: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.AddToCart(ctx, e.db, catalog.PersonalCart(ann.ID), "SHO-RUN-001-42", 1, ann.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.PlaceOrder(ctx, e.db, catalog.OrderRequest{IdempotencyKey: "k1", Scope: catalog.PersonalCart(ann.ID),
		CustomerID: ann.ID, Channel: "slack", ChatID: "DANN", Contact: catalog.Contact{Name: "Ann", Phone: "+15550100", Address: "1 Main St"}}); err != nil {
		t.Fatal(err)
	}
	e.postEvent(assistantStarted("UANN", "DANN", "1700.000001"))
	calls := e.waitCalls("assistant.threads.setSuggestedPrompts", 1)
	a := calls[0].Args
	if a["channel_id"] != "DANN" || a["thread_ts"] != "1700.000001" || a["title"] == "" {
		t.Errorf("setSuggestedPrompts args = %v", a)
	}
	var prompts []struct{ Title, Message string }
	if err := json.Unmarshal([]byte(a["prompts"]), &prompts); err != nil {
		t.Fatalf("prompts %q: %v", a["prompts"], err)
	}
	if len(prompts) != 4 {
		t.Fatalf("prompts = %+v, want four", prompts)
	}
	if !strings.HasPrefix(prompts[0].Title, "Buy again: AeroStride") || !strings.Contains(prompts[0].Message, "AeroStride") {
		t.Errorf("first prompt = %+v, want the last order's product", prompts[0])
	}
	roots, err := catalog.ListCategories(ctx, e.db)
	if err != nil {
		t.Fatal(err)
	}
	first := catalog.Children(roots, nil)[0].Name
	if prompts[1].Title != "Browse "+first || prompts[1].Message != "Show me "+first {
		t.Errorf("second prompt = %+v, want the first category %q", prompts[1], first)
	}
	// A shopper with no orders gets categories only.
	e.postEvent(assistantStarted("UBOB", "DBOB", "1700.000002"))
	calls = e.waitCalls("assistant.threads.setSuggestedPrompts", 2)
	if p := calls[1].Args["prompts"]; strings.Contains(p, "Buy again") || !strings.Contains(p, "Browse "+first) {
		t.Errorf("Bob's prompts = %s", p)
	}
}

// TestAssistantThreadTurn: a message in an assistant thread gets the title
// (first message only), a status while the turn runs, cleared after, and
// the answer in the thread.
func TestAssistantThreadTurn(t *testing.T) {
	e := newEnv(t, nil)
	const thread = "1700.000100"
	e.postEvent(threadDM("UANN", "DANN", e.nextTS(), thread, "running shoes under 100"))
	e.waitFor("DANN", thread, "an answer", hasText("AeroStride"))
	e.waitCalls("assistant.threads.setStatus", 2)
	calls := e.fake.Calls("assistant.threads.setTitle", "assistant.threads.setStatus", "chat.postMessage", "chat.startStream")
	var order []string
	for _, c := range calls {
		switch c.Method {
		case "assistant.threads.setTitle":
			order = append(order, "title:"+c.Args["title"])
		case "assistant.threads.setStatus":
			order = append(order, "status:"+c.Args["status"])
			if c.Args["channel_id"] != "DANN" || c.Args["thread_ts"] != thread {
				t.Errorf("setStatus args = %v", c.Args)
			}
		default:
			if len(order) == 0 || order[len(order)-1] != "answer" {
				order = append(order, "answer")
			}
		}
	}
	want := "title:running shoes under 100,status:is looking through the shop…,answer,status:"
	if got := strings.Join(order, ","); got != want {
		t.Errorf("calls = %s, want %s", got, want)
	}

	// The second message keeps the title.
	e.postEvent(threadDM("UANN", "DANN", e.nextTS(), thread, "show me the cart"))
	e.waitCalls("assistant.threads.setStatus", 4)
	if n := len(e.fake.Calls("assistant.threads.setTitle")); n != 1 {
		t.Errorf("setTitle called %d times, want once (the first message)", n)
	}
}

// A failing setStatus does not stop the answer; a mention in a channel and
// a plain DM (no thread) use no assistant method.
func TestAssistantSurfaceIsANicety(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.Fail("assistant.threads.setStatus", "not_allowed_token_type")
	e.postEvent(threadDM("UANN", "DANN", e.nextTS(), "1700.000200", "running shoes"))
	e.waitFor("DANN", "1700.000200", "an answer", hasText("AeroStride"))

	ts := e.nextTS()
	e.postEvent(mention("UBOB", "CTEAM", ts, "", "running shoes"))
	e.waitFor("CTEAM", ts, "an answer", hasText("AeroStride"))
	e.postEvent(dm("UBOB", "DBOB", e.nextTS(), "running shoes"))
	e.waitFor("DBOB", "", "an answer", hasText("AeroStride"))
	for _, c := range e.fake.Calls("assistant.threads.setStatus", "assistant.threads.setTitle") {
		if c.Args["channel_id"] != "DANN" {
			t.Errorf("%s outside an assistant thread: %v", c.Method, c.Args)
		}
	}
}

// The fake refuses what Slack refuses: prompts beyond four, an empty
// title, a call without its thread.
func TestFakeAssistantThreadsArguments(t *testing.T) {
	fake := slackfake.New(t)
	post := func(method string, args map[string]string) string {
		form := url.Values{}
		for k, v := range args {
			form.Set(k, v)
		}
		req, _ := http.NewRequest("POST", fake.URL+method, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Authorization", "Bearer "+slackfake.Token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct {
			OK    bool
			Error string
		}
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			t.Fatal(err)
		}
		return out.Error
	}
	five := `[{"title":"a","message":"a"},{"title":"b","message":"b"},{"title":"c","message":"c"},{"title":"d","message":"d"},{"title":"e","message":"e"}]`
	for _, tc := range []struct {
		method string
		args   map[string]string
	}{
		{"assistant.threads.setSuggestedPrompts", map[string]string{"channel_id": "D1", "thread_ts": "1.1", "prompts": five}},
		{"assistant.threads.setSuggestedPrompts", map[string]string{"channel_id": "D1", "thread_ts": "1.1", "prompts": `[{"title":"a"}]`}},
		{"assistant.threads.setTitle", map[string]string{"channel_id": "D1", "thread_ts": "1.1", "title": ""}},
		{"assistant.threads.setStatus", map[string]string{"channel_id": "D1", "status": "x"}},
	} {
		if got := post(tc.method, tc.args); got != "invalid_arguments" {
			t.Errorf("%s %v = %q, want invalid_arguments", tc.method, tc.args, got)
		}
	}
	if got := post("assistant.threads.setStatus", map[string]string{"channel_id": "D1", "thread_ts": "1.1", "status": ""}); got != "" {
		t.Errorf("clearing the status = %q, want ok", got)
	}
}

// waitCalls waits until the fake has seen n calls of method.
func (e *env) waitCalls(method string, n int) []slackfake.Call {
	e.t.Helper()
	if !e.fake.Wait(patience, func() bool { return len(e.fake.Calls(method)) >= n }) {
		e.t.Fatalf("%d %s calls, want %d", len(e.fake.Calls(method)), method, n)
	}
	return e.fake.Calls(method)
}

// TestAssistantWordsInMembersLocale: the status, the suggested prompts'
// words and the title come from the text catalogue in the member's Slack
// locale (users.info's locale), else in the shop's (Config.Locale).
func TestAssistantWordsInMembersLocale(t *testing.T) {
	e := newEnv(t, nil, func(_ *engine.Config, c *slackad.Config) { c.Locale = "en" })
	e.fake.AddUser("UIVAN", "Ivan", false)
	e.fake.SetLocale("UIVAN", "ru-RU")
	e.postEvent(assistantStarted("UIVAN", "DIVAN", "1700.000300"))
	a := e.waitCalls("assistant.threads.setSuggestedPrompts", 1)[0].Args
	if a["title"] != "Попробуйте:" || !strings.Contains(a["prompts"], "Смотреть: ") {
		t.Errorf("prompts in Russian: %v", a)
	}
	e.postEvent(threadDM("UIVAN", "DIVAN", e.nextTS(), "1700.000300", "кроссовки"))
	e.waitCalls("assistant.threads.setStatus", 2)
	if s := e.fake.Calls("assistant.threads.setStatus")[0].Args["status"]; s != "ищет в магазине…" {
		t.Errorf("status %q, want Russian", s)
	}
	// A member whose locale Slack does not give: the shop's language.
	e.postEvent(assistantStarted("UANN", "DANN", "1700.000301"))
	if a := e.waitCalls("assistant.threads.setSuggestedPrompts", 2)[1].Args; a["title"] != "Try one of these:" {
		t.Errorf("prompts without a locale: %v", a)
	}
}
