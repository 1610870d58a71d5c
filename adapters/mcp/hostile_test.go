package mcp_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/uptrace/bun"

	"shopbot/adapters/mcp"
	"shopbot/catalog/catalogtest"
	"shopbot/engine"
)

// TestAgentCartIsTheSessions: a cart belongs to the MCP session. Another
// session sees its own, empty cart, and no argument can name a cart or a
// customer: the schemas refuse one.
func TestAgentCartIsTheSessions(t *testing.T) {
	srv, _ := shop(t, catalogtest.SQLiteDemo(t), engine.Config{}, mcp.Options{})
	a, err := connect(t, srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := connect(t, srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	found, _, _ := call(t, a, "search_products", map[string]any{"query": "mug"})
	sku := firstString(found, "sku")
	if _, text, isErr := call(t, a, "add_to_cart", map[string]any{"sku": sku, "idempotency_key": "a-1"}); isErr {
		t.Fatalf("add_to_cart %s: %s", sku, text)
	}
	if cart, text, _ := call(t, a, "view_cart", map[string]any{}); cart["units"] != float64(1) {
		t.Fatalf("a's cart: %s", text)
	}
	if cart, text, _ := call(t, b, "view_cart", map[string]any{}); cart["empty"] != true {
		t.Errorf("b sees a cart that is not its own: %s", text)
	}
	for _, args := range []map[string]any{
		{"cart_id": 1},
		{"customer_id": 1},
		{"session": a.ID()},
	} {
		sc, text, isErr := call(t, b, "view_cart", args)
		if !isErr || !strings.Contains(text, "do not match the schema") || sc["error"] == nil {
			t.Errorf("view_cart %v: error %v, %s; want a schema error", args, isErr, text)
		}
	}
	if _, text, isErr := call(t, b, "remove_from_cart", map[string]any{"sku": sku, "cart_id": 1, "idempotency_key": "b-1"}); !isErr {
		t.Errorf("remove_from_cart with a cart id ran: %s", text)
	}
	if cart, text, _ := call(t, a, "view_cart", map[string]any{}); cart["units"] != float64(1) {
		t.Errorf("a's cart changed by b: %s", text)
	}
}

// TestAgentBadCalls: oversized arguments and tools not offered are
// refused with a clear message, and change nothing; a body over the
// bound is refused before the engine.
func TestAgentBadCalls(t *testing.T) {
	srv, _ := shop(t, catalogtest.SQLiteDemo(t), engine.Config{}, mcp.Options{MaxBodyBytes: 16 << 10})
	cs, err := connect(t, srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	_, text, isErr := call(t, cs, "search_products", map[string]any{"query": strings.Repeat("x", 5000)})
	if !isErr || !strings.Contains(text, "arguments too long") {
		t.Errorf("5000-byte query: error %v, %s; want arguments too long", isErr, text)
	}
	_, text, isErr = call(t, cs, "add_to_cart", map[string]any{"sku": "NOPE-1", "quantity": 1000000, "idempotency_key": "k1"})
	if !isErr {
		t.Errorf("quantity 1000000: %s", text)
	}
	if cart, text, _ := call(t, cs, "view_cart", map[string]any{}); cart["empty"] != true {
		t.Errorf("a refused call changed the cart: %s", text)
	}
	for _, name := range []string{"checkout", "request_human", "nope"} {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: map[string]any{}})
		if err == nil && !res.IsError {
			t.Errorf("%s ran for an agent", name)
		}
	}
	huge := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"search_products","arguments":{"query":"` + strings.Repeat("y", 20<<10) + `"}}}`
	req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(huge))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", cs.ID())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode < 400 {
		t.Errorf("a 20 KiB body: %d; want it refused", resp.StatusCode)
	}
}

// TestAgentRateLimit: an agent's calls count against its customer's
// limit, like chat turns; over it, a call is a tool error saying so.
func TestAgentRateLimit(t *testing.T) {
	srv, _ := shop(t, catalogtest.SQLiteDemo(t), engine.Config{RateLimit: 2, RateWindow: time.Hour}, mcp.Options{})
	cs, err := connect(t, srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if _, text, isErr := call(t, cs, "get_categories", map[string]any{}); isErr {
			t.Fatalf("call %d: %s", i, text)
		}
	}
	sc, text, isErr := call(t, cs, "get_categories", map[string]any{})
	if !isErr || sc["error"] == nil || !strings.Contains(strings.ToLower(text), "too many") && !strings.Contains(strings.ToLower(text), "try again") {
		t.Errorf("third call over a limit of 2: error %v, %s", isErr, text)
	}
}

// TestAgentToken: with a token set, a request without it or with another
// gets 401 and the client cannot connect; the right one shops.
func TestAgentToken(t *testing.T) {
	srv, _ := shop(t, catalogtest.SQLiteDemo(t), engine.Config{}, mcp.Options{Token: "s3cret"})
	for _, token := range []string{"", "wrong", "s3cre", "s3cretX"} {
		req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("token %q: %d %q; want 401 with a Bearer challenge", token, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
		if _, err := connect(t, srv.URL, token); err == nil {
			t.Errorf("token %q: the client connected", token)
		}
	}
	cs, err := connect(t, srv.URL, "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	if _, text, isErr := call(t, cs, "get_categories", map[string]any{}); isErr {
		t.Errorf("with the token: %s", text)
	}
}

// TestAgentSessionsInParallel: many sessions shopping at once each get
// their own cart, with no call failing.
func TestAgentSessionsInParallel(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		srv, _ := shop(t, db, engine.Config{}, mcp.Options{})
		first, err := connect(t, srv.URL, "")
		if err != nil {
			t.Fatal(err)
		}
		found, _, _ := call(t, first, "search_products", map[string]any{"query": "mug"})
		sku := firstString(found, "sku")
		const n = 40
		errs := make(chan string, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cs, err := connect(t, srv.URL, "")
				if err != nil {
					errs <- err.Error()
					return
				}
				qty := i%3 + 1
				for _, c := range []struct {
					name string
					args map[string]any
				}{{"search_products", map[string]any{"query": "mug"}}, {"add_to_cart", map[string]any{"sku": sku, "quantity": qty, "idempotency_key": fmt.Sprint("add-", i)}}} {
					res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: c.name, Arguments: c.args})
					if err != nil || res.IsError {
						errs <- fmt.Sprintf("session %d %s: %v %+v", i, c.name, err, res)
						return
					}
				}
				res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "view_cart", Arguments: map[string]any{}})
				if err != nil || res.IsError {
					errs <- fmt.Sprintf("session %d view_cart: %v", i, err)
					return
				}
				if units := res.StructuredContent.(map[string]any)["units"]; units != float64(qty) {
					errs <- fmt.Sprintf("session %d: %v units in its cart, want %d", i, units, qty)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	})
}
