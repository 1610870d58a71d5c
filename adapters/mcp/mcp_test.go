package mcp_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/uptrace/bun"

	"shopbot/adapters/mcp"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine"
	"shopbot/engine/agentdoor"
)

// shop is the MCP door on a real engine over the demo catalog in db (a
// catalogtest demo copy: SQLiteDemo, EachDemo), served on a loopback HTTP
// server.
func shop(t testing.TB, db *bun.DB, cfg engine.Config, opts mcp.Options) (*httptest.Server, *engine.Engine) {
	t.Helper()
	cfg.DB = db
	if cfg.Search == nil {
		cfg.Search = searchtest.NewDatabase(db)
	}
	if cfg.RateLimit == 0 {
		cfg.RateLimit = 1 << 30
	}
	eng, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	opts.Logger = slog.New(slog.DiscardHandler)
	srv := httptest.NewServer(mcp.Handler(eng, opts))
	t.Cleanup(srv.Close)
	return srv, eng
}

// bearer adds an Authorization header to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// connect opens an MCP session with the SDK's own client.
func connect(t testing.TB, url, token string) (*sdk.ClientSession, error) {
	t.Helper()
	hc := &http.Client{Transport: http.DefaultTransport}
	if token != "" {
		hc.Transport = bearer{token, http.DefaultTransport}
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "test-agent", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, err
}

// call runs a tool and returns its structured content and text.
func call(t testing.TB, cs *sdk.ClientSession, name string, args any) (map[string]any, string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks", name, len(res.Content))
	}
	text := res.Content[0].(*sdk.TextContent).Text
	raw, _ := json.Marshal(res.StructuredContent)
	var sc map[string]any
	if err := json.Unmarshal(raw, &sc); err != nil || sc == nil {
		t.Fatalf("%s: structured content %s is no object", name, raw)
	}
	return sc, text, res.IsError
}

// firstString finds the first value of key anywhere in v.
func firstString(v any, key string) string {
	switch x := v.(type) {
	case map[string]any:
		if s, ok := x[key].(string); ok && s != "" {
			return s
		}
		for _, e := range x {
			if s := firstString(e, key); s != "" {
				return s
			}
		}
	case []any:
		for _, e := range x {
			if s := firstString(e, key); s != "" {
				return s
			}
		}
	}
	return ""
}

// TestAgentShops: an agent lists the tools (with hints, no checkout),
// searches, adds to its cart, views it and reads its order; every call
// is in its conversation in channel "agent".
func TestAgentShops(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		srv, _ := shop(t, db, engine.Config{}, mcp.Options{})
		cs, err := connect(t, srv.URL, "")
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		list, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]*sdk.Tool{}
		for _, tl := range list.Tools {
			byName[tl.Name] = tl
		}
		for _, name := range []string{"search_products", "get_product_details", "add_to_cart", "view_cart", "get_order_status", "apply_promo_code", "notify_when_available", "get_delivery_options"} {
			if byName[name] == nil {
				t.Errorf("tool %s not listed", name)
			}
		}
		for _, name := range []string{"checkout", "request_human"} {
			if byName[name] != nil {
				t.Errorf("tool %s listed; it is not offered to agents", name)
			}
		}
		if a := byName["search_products"].Annotations; a == nil || !a.ReadOnlyHint || !a.IdempotentHint {
			t.Errorf("search_products hints %+v; want read-only, idempotent", a)
		}
		for _, name := range []string{"remove_from_cart", "cancel_order"} {
			if a := byName[name].Annotations; a == nil || a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint {
				t.Errorf("%s hints %+v; want destructive", name, a)
			}
		}
		if s, _ := json.Marshal(byName["cancel_order"].InputSchema); !strings.Contains(string(s), `"required":["order_number","idempotency_key"]`) {
			t.Errorf("cancel_order schema %s; want an idempotency_key required", s)
		}
		if s, _ := json.Marshal(byName["add_to_cart"].InputSchema); !strings.Contains(string(s), `"additionalProperties":false`) {
			t.Errorf("add_to_cart schema %s is not the engine's strict one", s)
		}

		found, text, isErr := call(t, cs, "search_products", map[string]any{"query": "sneakers"})
		sku := firstString(found, "sku")
		if isErr || sku == "" || !strings.Contains(text, sku) {
			t.Fatalf("search: error %v, text %s", isErr, text)
		}
		// A product with sizes asks which one, as in chat; the agent
		// answers with options.
		added, text, isErr := call(t, cs, "add_to_cart", map[string]any{"sku": sku, "quantity": 2, "idempotency_key": "add-1"})
		if choose, _ := added["choose"].(string); !isErr && choose != "" {
			values, _ := added["values"].([]any)
			if len(values) == 0 {
				t.Fatalf("add_to_cart asks for %s without values: %s", choose, text)
			}
			_, text, isErr = call(t, cs, "add_to_cart", map[string]any{"sku": sku, "quantity": 2, "options": map[string]any{choose: values[0]}, "idempotency_key": "add-2"})
		}
		if isErr {
			t.Fatalf("add_to_cart: %s", text)
		}
		cart, text, isErr := call(t, cs, "view_cart", map[string]any{})
		if isErr || !strings.HasPrefix(firstString(cart, "sku"), sku) || cart["units"] != float64(2) {
			t.Fatalf("view_cart: %s", text)
		}

		// The agent's customer is the session's; its order is read back.
		id := "mcp-" + cs.ID()
		c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: agentdoor.Channel, PlatformUserID: id})
		if err != nil {
			t.Fatal(err)
		}
		o := catalogtest.PlaceOrderAt(t, db, catalog.OrderRequest{IdempotencyKey: "agent-test-order", Scope: catalog.PersonalCart(c.ID), CustomerID: c.ID, Channel: agentdoor.Channel, ChatID: id}, time.Now(), nil)
		status, text, isErr := call(t, cs, "get_order_status", map[string]any{"order_number": o.Number})
		if isErr || firstString(status, "number") != o.Number {
			t.Fatalf("get_order_status %s: %s", o.Number, text)
		}

		var conv catalog.Conversation
		if err := db.NewSelect().Model(&conv).Where("channel = ? AND chat_id = ?", agentdoor.Channel, id).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		msgs, err := catalog.RecentMessages(ctx, db, conv.ID, 100)
		if err != nil {
			t.Fatal(err)
		}
		var calls, results []string
		for _, m := range msgs {
			for _, tc := range m.ToolCalls {
				calls = append(calls, tc.Name)
			}
			if m.Role == catalog.RoleTool {
				results = append(results, m.ToolName)
			}
		}
		want := "search_products add_to_cart add_to_cart view_cart get_order_status"
		if strings.Join(calls, " ") != want || strings.Join(results, " ") != want {
			t.Errorf("transcript calls %v, results %v; want %s each", calls, results, want)
		}
	})
}
