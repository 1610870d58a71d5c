package slack_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"shopbot/adapters/slack/slackfake"
	"shopbot/catalog"
)

func (e *env) command(user, text, trigger string) *http.Response {
	e.t.Helper()
	body := []byte(url.Values{"command": {"/shop"}, "text": {text}, "user_id": {user}, "user_name": {strings.ToLower(user)},
		"team_id": {"T1"}, "channel_id": {"C1"}, "trigger_id": {trigger}, "response_url": {e.fake.ResponseURL(trigger)}}.Encode())
	return e.send("/slack/commands", "application/x-www-form-urlencoded", body)
}

func responsesText(e *env) string {
	b, _ := json.Marshal(e.fake.Responses())
	return string(b)
}

// TestSlashCommand: /shop help answers at once; /shop <query> searches
// and /shop cart shows the cart, both as ephemeral responses through
// response_url; a button on them answers there too.
func TestSlashCommand(t *testing.T) {
	e := newEnv(t, nil)
	resp := e.command("UANN", "help", "t1")
	var help map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&help); err != nil || help["response_type"] != "ephemeral" || !strings.Contains(fmt.Sprint(help["text"]), "/shop cart") {
		t.Fatalf("help: %v %v", help, err)
	}
	resp.Body.Close()

	if resp := e.command("UANN", "running shoes", "t2"); resp.StatusCode != 200 || readBody(resp) != "" {
		t.Fatalf("search ack: %d", resp.StatusCode)
	}
	if !e.fake.Wait(patience, func() bool { return strings.Contains(responsesText(e), "add|SHO-RUN") }) {
		t.Fatalf("no search results: %s", responsesText(e))
	}
	r := e.fake.Responses()[0]
	if r["response_type"] != "ephemeral" {
		t.Errorf("results not ephemeral: %v", r["response_type"])
	}

	// The Add button on the ephemeral results of a shoe asks for the size
	// (SHO-RUN-001 has variants), there; the size chosen goes into Ann's
	// own cart.
	interact := func(trigger string, action map[string]any) {
		t.Helper()
		payload, _ := json.Marshal(map[string]any{
			"type": "block_actions", "user": map[string]any{"id": "UANN", "username": "ann"}, "trigger_id": trigger,
			"container": map[string]any{"type": "message", "message_ts": "1.2", "channel_id": "C1", "is_ephemeral": true},
			"channel":   map[string]any{"id": "C1"}, "response_url": e.fake.ResponseURL(trigger),
			"actions": []map[string]any{action},
		})
		resp := e.send("/slack/interactions", "application/x-www-form-urlencoded", []byte(url.Values{"payload": {string(payload)}}.Encode()))
		if resp.StatusCode != 200 {
			t.Fatalf("interaction %d", resp.StatusCode)
		}
		readBody(resp)
	}
	interact("t3", map[string]any{"type": "button", "action_id": "add|SHO-RUN-001|1", "value": "add|SHO-RUN-001|1", "block_id": "x"})
	if !e.fake.Wait(patience, func() bool { return strings.Contains(responsesText(e), "add|SHO-RUN-001-42|1") }) {
		t.Fatalf("no size picker after Add: %s", responsesText(e))
	}
	picker := e.fake.Responses()[len(e.fake.Responses())-1]
	if picker["response_type"] != "ephemeral" || !strings.Contains(fmt.Sprint(picker), "Which size?") || !strings.Contains(fmt.Sprint(picker), "static_select") {
		t.Errorf("picker: %v", picker)
	}
	if strings.Contains(responsesText(e), "Your cart") {
		t.Fatalf("a shoe without a size went into the cart: %s", responsesText(e))
	}
	interact("t3b", slackfake.SelectAction("picker:actions", "picker", "add|SHO-RUN-001-42|1", "42", "Which size?", "1.3"))
	if !e.fake.Wait(patience, func() bool { return strings.Contains(responsesText(e), "Your cart") }) {
		t.Fatalf("no cart after choosing a size: %s", responsesText(e))
	}
	ann, err := catalog.ResolveCustomer(context.Background(), e.db, catalog.Identity{Channel: "slack", PlatformUserID: "UANN", DisplayName: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := catalog.GetCart(context.Background(), e.db, catalog.PersonalCart(ann.ID))
	if err != nil || len(c.Items) != 1 || c.Items[0].Product == nil || c.Items[0].Product.SKU != "SHO-RUN-001-42" || c.Items[0].Quantity != 1 {
		t.Fatalf("Ann's cart: %+v %v", c, err)
	}

	before := len(e.fake.Responses())
	readBody(e.command("UANN", "cart", "t4"))
	if !e.fake.Wait(patience, func() bool { return len(e.fake.Responses()) > before }) {
		t.Fatal("no answer to /shop cart")
	}
	if last := e.fake.Responses()[len(e.fake.Responses())-1]; !strings.Contains(fmt.Sprint(last), "AeroStride Glide 3") {
		t.Errorf("/shop cart: %v", last)
	}
	if calls := e.fake.Calls("chat.postMessage", "chat.startStream"); len(calls) != 0 {
		t.Errorf("slash command answered in the channel: %+v", calls)
	}
}

// TestSlashCommandBadInput: a command without a response_url, or with
// one that is not https, is refused and changes nothing.
func TestSlashCommandBadInput(t *testing.T) {
	e := newEnv(t, &countingEngine{})
	for name, vals := range map[string]url.Values{
		"no response_url": {"command": {"/shop"}, "text": {"x"}, "user_id": {"UANN"}, "trigger_id": {"t"}},
		"http elsewhere":  {"command": {"/shop"}, "text": {"x"}, "user_id": {"UANN"}, "trigger_id": {"t"}, "response_url": {"http://evil.example.com/x"}},
		"no user":         {"command": {"/shop"}, "text": {"x"}, "trigger_id": {"t"}, "response_url": {e.fake.ResponseURL("t")}},
	} {
		resp := e.send("/slack/commands", "application/x-www-form-urlencoded", []byte(vals.Encode()))
		if b := readBody(resp); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, resp.StatusCode, b)
		}
	}
	if n := e.count("inbox"); n != 0 {
		t.Errorf("%d rows recorded", n)
	}
}

// TestAppHome: opening the Home tab publishes Ann's cart, the channel
// carts she added to (with who added what) and her recent orders.
func TestAppHome(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	ann, _ := catalog.ResolveCustomer(ctx, e.db, catalog.Identity{Channel: "slack", PlatformUserID: "UANN", DisplayName: "Ann"})
	bob, _ := catalog.ResolveCustomer(ctx, e.db, catalog.Identity{Channel: "slack", PlatformUserID: "UBOB", DisplayName: "Bob"})
	must := func(_ *catalog.Cart, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(catalog.AddToCart(ctx, e.db, catalog.PersonalCart(ann.ID), "SHO-RUN-001-42", 2, ann.ID))
	must(catalog.AddToCart(ctx, e.db, catalog.SharedCart("slack", "CTEAM"), "SHO-RUN-002-40", 1, ann.ID))
	must(catalog.AddToCart(ctx, e.db, catalog.SharedCart("slack", "CTEAM"), "SHO-TRL-001-43", 1, bob.ID))
	must(catalog.AddToCart(ctx, e.db, catalog.SharedCart("slack", "COTHER"), "SHO-TRL-001-43", 1, bob.ID))
	must(catalog.AddToCart(ctx, e.db, catalog.SharedCart("slack", "CPAST"), "SHO-RUN-004-42", 1, ann.ID))
	o, err := catalog.PlaceOrder(ctx, e.db, catalog.OrderRequest{IdempotencyKey: "k1", Scope: catalog.SharedCart("slack", "CPAST"),
		CustomerID: ann.ID, Channel: "slack", ChatID: "CPAST", Contact: catalog.Contact{Name: "Ann", Phone: "+15550100", Address: "1 Main St"}})
	if err != nil {
		t.Fatal(err)
	}

	e.postEvent(map[string]any{"type": "app_home_opened", "user": "UANN", "channel": "DHOME", "tab": "home", "event_ts": e.nextTS()})
	if !e.fake.Wait(patience, func() bool { return e.fake.View("UANN") != nil }) {
		t.Fatal("no Home view published")
	}
	v, _ := json.Marshal(e.fake.View("UANN"))
	home := string(v)
	for _, want := range []string{`"type":"home"`, "2 × AeroStride Glide 3 Men", "\\u003c#CTEAM\\u003e", "(you)", "(Bob)", "#" + o.Number, "new"} {
		if !strings.Contains(home, want) {
			t.Errorf("Home lacks %q:\n%s", want, home)
		}
	}
	if strings.Contains(home, "COTHER") {
		t.Error("Home shows a channel cart Ann did not add to")
	}
	e.postEvent(map[string]any{"type": "app_home_opened", "user": "UANN", "channel": "DHOME", "tab": "messages", "event_ts": e.nextTS()})
	e.ad.Wait()
	if n := len(e.fake.Calls("views.publish")); n != 1 {
		t.Errorf("%d views published; the messages tab needs none", n)
	}
}
