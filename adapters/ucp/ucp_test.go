package ucp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/uptrace/bun"

	"shopbot/adapters/ucp"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine"
	"shopbot/engine/agentdoor"
)

// schemas are the spec's JSON schemas (testdata/schemas, tag
// v2026-04-08), resolved from https://ucp.dev/schemas/ to the copies.
type schemas struct{ checkout, errorResponse, business *jsonschema.Schema }

type localLoader struct{}

func (localLoader) Load(url string) (any, error) {
	rel, ok := strings.CutPrefix(url, "https://ucp.dev/schemas/")
	if !ok {
		return nil, os.ErrNotExist
	}
	f, err := os.Open(filepath.Join("testdata", "schemas", filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return jsonschema.UnmarshalJSON(f)
}

func loadSchemas(t *testing.T) schemas {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.UseLoader(jsonschema.SchemeURLLoader{"https": localLoader{}})
	c.AssertFormat()
	var s schemas
	for dst, url := range map[**jsonschema.Schema]string{
		// The checkout with the fulfillment extension (checkout.json and
		// the extension's fulfillment object).
		&s.checkout:      "https://ucp.dev/schemas/shopping/fulfillment.json#/$defs/dev.ucp.shopping.checkout",
		&s.errorResponse: "https://ucp.dev/schemas/shopping/types/error_response.json",
		&s.business:      "https://ucp.dev/schemas/ucp.json#/$defs/business_schema",
	} {
		sch, err := c.Compile(url)
		if err != nil {
			t.Fatalf("compile %s: %v", url, err)
		}
		*dst = sch
	}
	return s
}

// ucpShop serves the binding on a real engine over the demo catalog,
// keeping its records in store, and finds a SKU in stock.
func ucpShop(t *testing.T, db *bun.DB, store ucp.Store) (*httptest.Server, string) {
	t.Helper()
	ctx := context.Background()
	if _, err := demo.Load(ctx, db); err != nil {
		t.Fatal(err)
	}
	srv, eng := ucpServer(t, db, store)
	rep, err := eng.CallTool(ctx, engine.Turn{Channel: agentdoor.Channel, ChatID: "finder", UserID: "finder"}, "search_products", `{"query":"mug"}`)
	if err != nil || rep.IsError {
		t.Fatalf("search: %v %s", err, rep.Content)
	}
	var found struct {
		Products []struct {
			SKU   string `json:"sku"`
			Stock int    `json:"stock"`
		} `json:"products"`
	}
	_ = json.Unmarshal([]byte(rep.Content), &found)
	for _, p := range found.Products {
		if p.Stock >= 5 {
			return srv, p.SKU
		}
	}
	t.Fatalf("no mug in stock: %s", rep.Content)
	return nil, ""
}

// ucpServer serves the binding on a new engine over db, keeping its
// records in store (nil: in the process), as one replica would.
func ucpServer(t *testing.T, db *bun.DB, store ucp.Store) (*httptest.Server, *engine.Engine) {
	t.Helper()
	eng, err := engine.New(engine.Config{DB: db, Search: searchtest.NewDatabase(db), RateLimit: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	ucp.Routes(mux, eng, ucp.Options{MCPPath: "/mcp", TermsURL: "https://shop.example/terms", Logger: slog.New(slog.DiscardHandler), Store: store})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, eng
}

// do sends a request and returns the status and the decoded body.
func do(t *testing.T, method, url, key string, body any) (int, map[string]any, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("UCP-Agent", `profile="https://platform.example/profile"`)
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s %s: %d, body %s is not JSON", method, url, res.StatusCode, raw)
	}
	return res.StatusCode, m, raw
}

func valid(t *testing.T, s *jsonschema.Schema, what string, raw []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(v); err != nil {
		t.Errorf("%s does not match the spec's schema: %v\n%s", what, err, raw)
	}
}

var address = map[string]any{"methods": []any{map[string]any{"type": "shipping", "destinations": []any{map[string]any{
	"street_address": "123 Main St", "address_locality": "Springfield", "address_region": "IL", "postal_code": "62701", "address_country": "US",
}}}}}

// TestCheckoutSessionLifecycle: create (incomplete) → update with the
// buyer and address (ready_for_complete) → complete with one
// Idempotency-Key twice (completed, one order) → get; every response
// matches the spec's schemas, and so do the errors: the same key with
// another body (409), changing a completed session (409), an unknown
// session (404).
func TestCheckoutSessionLifecycle(t *testing.T) {
	s := loadSchemas(t)
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		srv, sku := ucpShop(t, db, &catalog.UCPRecords{DB: db})
		base := srv.URL + "/ucp/v1/checkout-sessions"

		code, prof, raw := do(t, "GET", srv.URL+"/.well-known/ucp", "", nil)
		profUCP, _ := json.Marshal(prof["ucp"])
		valid(t, s.business, "the profile", profUCP)
		caps, _ := prof["ucp"].(map[string]any)["capabilities"].(map[string]any)
		for _, c := range []string{"dev.ucp.shopping.checkout", "dev.ucp.shopping.cart", "dev.ucp.shopping.discount", "dev.ucp.shopping.fulfillment", "dev.ucp.shopping.order", "dev.ucp.shopping.catalog.search"} {
			if caps[c] == nil {
				t.Errorf("profile (%d) lacks %s: %s", code, c, raw)
			}
		}

		lines := []any{map[string]any{"item": map[string]any{"id": sku}, "quantity": 2}}
		code, co, raw := do(t, "POST", base, "create-1", map[string]any{"line_items": lines})
		valid(t, s.checkout, "create", raw)
		if code != http.StatusCreated || co["status"] != "incomplete" || !strings.Contains(string(raw), "$.buyer.email") {
			t.Fatalf("create: %d %s", code, raw)
		}
		id, _ := co["id"].(string)

		upd := map[string]any{"line_items": lines, "buyer": map[string]any{"first_name": "Jane", "last_name": "Doe", "email": "jane@example.com"}, "fulfillment": address}
		code, co, raw = do(t, "PUT", base+"/"+id, "", upd)
		valid(t, s.checkout, "update", raw)
		if code != http.StatusOK || co["status"] != "ready_for_complete" {
			t.Fatalf("update: %d %s", code, raw)
		}

		pay := map[string]any{"payment": map[string]any{}}
		code, co, raw = do(t, "POST", base+"/"+id+"/complete", "complete-1", pay)
		valid(t, s.checkout, "complete", raw)
		order, _ := co["order"].(map[string]any)
		if code != http.StatusOK || co["status"] != "completed" || order["id"] == nil {
			t.Fatalf("complete: %d %s", code, raw)
		}
		code2, _, raw2 := do(t, "POST", base+"/"+id+"/complete", "complete-1", pay)
		if code2 != code || !bytes.Equal(raw2, raw) {
			t.Errorf("the same Idempotency-Key again: %d %s; want the first response", code2, raw2)
		}
		n, err := db.NewSelect().Model((*catalog.Order)(nil)).Where("channel = ?", agentdoor.Channel).Count(context.Background())
		if err != nil || n != 1 {
			t.Errorf("%d orders (%v); want 1", n, err)
		}

		code, _, raw = do(t, "POST", base+"/"+id+"/complete", "complete-1", map[string]any{"payment": map[string]any{"instruments": []any{}}})
		valid(t, s.errorResponse, "key reuse", raw)
		if code != http.StatusConflict {
			t.Errorf("the key with another body: %d %s; want 409", code, raw)
		}
		code, co, raw = do(t, "GET", base+"/"+id, "", nil)
		valid(t, s.checkout, "get", raw)
		if code != http.StatusOK || co["status"] != "completed" {
			t.Errorf("get: %d %s", code, raw)
		}
		code, _, raw = do(t, "PUT", base+"/"+id, "", upd)
		valid(t, s.errorResponse, "update of a completed session", raw)
		if code != http.StatusConflict {
			t.Errorf("update after complete: %d %s; want 409", code, raw)
		}
		code, _, raw = do(t, "GET", base+"/chk_nope", "", nil)
		valid(t, s.errorResponse, "unknown session", raw)
		if code != http.StatusNotFound {
			t.Errorf("unknown session: %d %s", code, raw)
		}
	})
}

// TestCheckoutSessionErrors: malformed bodies are 400 and create
// nothing; an unknown item leaves the session incomplete with a message
// on its line; complete before ready says so; cancel is final.
func TestCheckoutSessionErrors(t *testing.T) {
	s := loadSchemas(t)
	srv, sku := ucpShop(t, catalogtest.SQLite(t), nil) // the in-process store
	base := srv.URL + "/ucp/v1/checkout-sessions"
	for _, body := range []any{
		map[string]any{"line_items": []any{}},
		map[string]any{"line_items": []any{map[string]any{"item": map[string]any{"id": sku}, "quantity": 0}}},
		map[string]any{"line_items": []any{map[string]any{"item": map[string]any{"id": strings.Repeat("x", 65)}, "quantity": 1}}},
		map[string]any{"line_items": "many"},
	} {
		code, _, raw := do(t, "POST", base, "", body)
		valid(t, s.errorResponse, "a bad create", raw)
		if code != http.StatusBadRequest {
			t.Errorf("create %v: %d %s; want 400", body, code, raw)
		}
	}
	code, co, raw := do(t, "POST", base, "", map[string]any{"line_items": []any{map[string]any{"item": map[string]any{"id": "NOPE-404"}, "quantity": 1}}})
	valid(t, s.checkout, "create with an unknown item", raw)
	if code != http.StatusCreated || co["status"] != "incomplete" || !strings.Contains(string(raw), "$.line_items[0]") {
		t.Errorf("unknown item: %d %s", code, raw)
	}
	id, _ := co["id"].(string)
	code, co, raw = do(t, "POST", base+"/"+id+"/complete", "", map[string]any{})
	valid(t, s.checkout, "complete before ready", raw)
	if code != http.StatusOK || co["status"] != "incomplete" || !strings.Contains(string(raw), "not_ready") {
		t.Errorf("complete before ready: %d %s", code, raw)
	}
	code, co, raw = do(t, "POST", base+"/"+id+"/cancel", "", nil)
	valid(t, s.checkout, "cancel", raw)
	if code != http.StatusOK || co["status"] != "canceled" {
		t.Errorf("cancel: %d %s", code, raw)
	}
	code, _, raw = do(t, "POST", base+"/"+id+"/complete", "", map[string]any{})
	valid(t, s.errorResponse, "complete after cancel", raw)
	if code != http.StatusConflict {
		t.Errorf("complete after cancel: %d %s; want 409", code, raw)
	}
}

// With a token (MCP_TOKEN), every checkout-session request without it is
// refused in the spec's error shape and changes nothing; the profile
// stays public.
func TestCheckoutSessionsNeedTheToken(t *testing.T) {
	s := loadSchemas(t)
	db := catalogtest.SQLite(t)
	eng, err := engine.New(engine.Config{DB: db, Search: searchtest.NewDatabase(db), RateLimit: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	ucp.Routes(mux, eng, ucp.Options{Logger: slog.New(slog.DiscardHandler), Token: "s3cret"})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	send := func(method, path, auth string) (int, []byte) {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(`{"line_items":[{"item":{"id":"X"},"quantity":1}]}`))
		req.Header.Set("Content-Type", "application/json")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		return res.StatusCode, raw
	}
	for _, auth := range []string{"", "Bearer wrong", "s3cret", "Bearer s3cret2"} {
		for _, rq := range [][2]string{{"POST", "/ucp/v1/checkout-sessions"}, {"GET", "/ucp/v1/checkout-sessions/abc"},
			{"POST", "/ucp/v1/checkout-sessions/abc/complete"}, {"POST", "/ucp/v1/checkout-sessions/abc/cancel"}} {
			code, raw := send(rq[0], rq[1], auth)
			if code != http.StatusUnauthorized {
				t.Errorf("%s %s with %q: %d %s, want 401", rq[0], rq[1], auth, code, raw)
				continue
			}
			valid(t, s.errorResponse, "unauthorized", raw)
		}
	}
	if code, raw := send("POST", "/ucp/v1/checkout-sessions", "Bearer s3cret"); code != http.StatusCreated {
		t.Errorf("with the token: %d %s, want 201", code, raw)
	}
	if code, _ := send("GET", "/.well-known/ucp", ""); code != http.StatusOK {
		t.Errorf("the profile without the token: %d, want 200", code)
	}
}
