package openai

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"shopbot/catalog"
	"shopbot/engine/llm"
	"shopbot/engine/llmtest"
)

const testKey = "sk-test-secret-4242"

// logBuffer collects log output written from the client's goroutine.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// newTestOpenAI points a client at srv with fast backoff; logs go to the
// returned buffer so tests can check what was (not) logged.
func newTestOpenAI(t *testing.T, srv *llmtest.Server, cfg Config) (*Client, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	if cfg.BaseURL == "" {
		cfg.BaseURL = srv.URL
	}
	if cfg.Model == "" {
		cfg.Model = "gpt-test"
	}
	cfg.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	o := New(cfg)
	o.backoffMin, o.backoffMax = time.Millisecond, 5*time.Millisecond
	t.Cleanup(func() {
		if out := logs.String(); out != "" {
			t.Log("client log:\n" + out)
		}
	})
	return o, logs
}

func userAsks(text string) llm.ChatRequest {
	return llm.ChatRequest{Messages: []llm.ChatMessage{{Role: catalog.RoleUser, Content: text}}}
}

func TestOpenAIAnswers(t *testing.T) {
	tests := []struct {
		name      string
		step      llmtest.Step
		wantText  string
		wantCalls []catalog.ToolCall
	}{
		{
			name:     "text streams in order",
			step:     llmtest.Step{Text: "Red sneakers are in stock in sizes 40 to 44."},
			wantText: "Red sneakers are in stock in sizes 40 to 44.",
		},
		{
			name: "two tool calls with arguments split across chunks",
			step: llmtest.CallTools(
				llmtest.ToolCall{ID: "call_a", Name: "search_products", Arguments: `{"query":"red sneakers","max_price":100,"limit":5}`},
				llmtest.ToolCall{ID: "call_b", Name: "get_categories", Arguments: `{}`},
			),
			wantCalls: []catalog.ToolCall{
				{ID: "call_a", Name: "search_products", Arguments: `{"query":"red sneakers","max_price":100,"limit":5}`},
				{ID: "call_b", Name: "get_categories", Arguments: `{}`},
			},
		},
		{
			name: "text and a tool call",
			step: llmtest.Step{Text: "Let me look.", ToolCalls: []llmtest.ToolCall{
				{Name: "get_availability", Arguments: `{"sku":"SNK-RED-42 ü"}`},
			}},
			wantText:  "Let me look.",
			wantCalls: []catalog.ToolCall{{ID: "call_1", Name: "get_availability", Arguments: `{"sku":"SNK-RED-42 ü"}`}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			step := tt.step
			step.Model, step.PromptTokens, step.CompletionTokens = "gpt-test-2025-01-01", 42, 7
			srv := llmtest.NewServer(t, step)
			o, _ := newTestOpenAI(t, srv, Config{})

			var deltas []string
			resp, err := o.Chat(t.Context(), userAsks("red sneakers?"), func(s string) { deltas = append(deltas, s) })
			if err != nil {
				t.Fatalf("Chat: %v", err)
			}
			if got := strings.Join(deltas, ""); got != tt.wantText || resp.Text != tt.wantText {
				t.Errorf("deltas %q, text %q; want %q", deltas, resp.Text, tt.wantText)
			}
			if strings.Count(tt.wantText, " ") > 0 && len(deltas) < 2 {
				t.Errorf("got %d deltas, want the text streamed in several", len(deltas))
			}
			if !reflect.DeepEqual(resp.ToolCalls, tt.wantCalls) {
				t.Errorf("tool calls = %+v, want %+v", resp.ToolCalls, tt.wantCalls)
			}
			if resp.Model != "gpt-test-2025-01-01" || resp.PromptTokens != 42 || resp.CompletionTokens != 7 {
				t.Errorf("model %q, tokens %d/%d; want the server's gpt-test-2025-01-01, 42/7", resp.Model, resp.PromptTokens, resp.CompletionTokens)
			}
			if resp.Latency <= 0 {
				t.Errorf("latency = %v, want > 0", resp.Latency)
			}
		})
	}
}

func TestOpenAIRequestWireShape(t *testing.T) {
	schema := map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"properties": map[string]any{
			"query": map[string]any{"type": "string", "maxLength": 200},
			"limit": map[string]any{"type": "integer", "minimum": 1, "maximum": 10},
		},
		"required": []any{"query"},
	}
	req := llm.ChatRequest{
		Messages: []llm.ChatMessage{
			{Role: catalog.RoleSystem, Content: "You are Shopbot."},
			{Role: catalog.RoleUser, Content: "red sneakers and categories"},
			{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{
				{ID: "call_1", Name: "search_products", Arguments: `{"query":"red sneakers"}`},
				{ID: "call_2", Name: "get_categories", Arguments: ""},
			}},
			{Role: catalog.RoleTool, ToolCallID: "call_1", Content: `{"results":[]}`},
			{Role: catalog.RoleTool, ToolCallID: "call_2", Content: `{"categories":["shoes"]}`},
			{Role: catalog.RoleAssistant, Content: "No red sneakers yet."},
			{Role: catalog.RoleUser, Content: "ok"},
		},
		Tools: []llm.ToolSpec{
			{Name: "search_products", Description: "Search the catalog.", Parameters: schema},
			{Name: "get_categories", Description: "List categories.", Parameters: map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false}},
		},
	}
	srv := llmtest.NewServer(t, llmtest.Reply("fine"))
	o, _ := newTestOpenAI(t, srv, Config{APIKey: testKey})
	if _, err := o.Chat(t.Context(), req, nil); err != nil {
		t.Fatalf("Chat: %v", err)
	}

	got := srv.Requests()[0]
	wantMessages := []llmtest.Message{
		{Role: "system", Content: "You are Shopbot."},
		{Role: "user", Content: "red sneakers and categories"},
		{Role: "assistant", ToolCalls: []llmtest.ToolCall{
			{ID: "call_1", Name: "search_products", Arguments: `{"query":"red sneakers"}`},
			{ID: "call_2", Name: "get_categories", Arguments: "{}"},
		}},
		{Role: "tool", ToolCallID: "call_1", Content: `{"results":[]}`},
		{Role: "tool", ToolCallID: "call_2", Content: `{"categories":["shoes"]}`},
		{Role: "assistant", Content: "No red sneakers yet."},
		{Role: "user", Content: "ok"},
	}
	if !reflect.DeepEqual(got.Messages, wantMessages) {
		t.Errorf("messages:\n got %+v\nwant %+v", got.Messages, wantMessages)
	}
	if got.Model != "gpt-test" || !got.Stream || !got.IncludeUsage {
		t.Errorf("model %q stream %v include_usage %v; want gpt-test, true, true", got.Model, got.Stream, got.IncludeUsage)
	}
	if got.Authorization != "Bearer "+testKey {
		t.Errorf("Authorization = %q, want the bearer key", got.Authorization)
	}
	if len(got.Tools) != 2 {
		t.Fatalf("got %d tools, want 2", len(got.Tools))
	}
	for i, tool := range got.Tools {
		want := req.Tools[i]
		if tool.Name != want.Name || tool.Description != want.Description || tool.Strict != nil {
			t.Errorf("tool %d = %s %q strict %v; want %s %q, strict unset", i, tool.Name, tool.Description, tool.Strict, want.Name, want.Description)
		}
		if !sameJSON(t, tool.Parameters, want.Parameters) {
			t.Errorf("tool %s parameters = %s, want %v", tool.Name, tool.Parameters, want.Parameters)
		}
	}
	var body struct {
		ToolChoice        string `json:"tool_choice"`
		ParallelToolCalls bool   `json:"parallel_tool_calls"`
	}
	if err := json.Unmarshal(got.Body, &body); err != nil || body.ToolChoice != "auto" || !body.ParallelToolCalls {
		t.Errorf("tool_choice %q parallel_tool_calls %v (err %v); want auto, true", body.ToolChoice, body.ParallelToolCalls, err)
	}
}

func sameJSON(t *testing.T, raw json.RawMessage, want any) bool {
	t.Helper()
	var a, b any
	wantRaw, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if json.Unmarshal(raw, &a) != nil || json.Unmarshal(wantRaw, &b) != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}

func TestOpenAINoToolsNoKey(t *testing.T) {
	// Settings come from the config only, never from the SDK's OPENAI_* defaults.
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	srv := llmtest.NewServer(t, llmtest.Reply("hi"))
	o, _ := newTestOpenAI(t, srv, Config{}) // local servers: no key
	if _, err := o.Chat(t.Context(), userAsks("hello"), nil); err != nil {
		t.Fatalf("Chat: %v", err)
	}
	got := srv.Requests()[0]
	if got.Authorization != "" {
		t.Errorf("Authorization = %q, want none without a key", got.Authorization)
	}
	for _, field := range []string{`"tools"`, `"tool_choice"`, `"parallel_tool_calls"`} {
		if bytes.Contains(got.Body, []byte(field)) {
			t.Errorf("body has %s without tools: %s", field, got.Body)
		}
	}
}

func TestOpenAIRetries(t *testing.T) {
	retryMS := func(ms string) http.Header { return http.Header{"Retry-After-Ms": {ms}} }
	tests := []struct {
		name       string
		script     []llmtest.Step
		maxRetries int
		wantCalls  int
		wantErr    string // substring; "" means success
		minElapsed time.Duration
	}{
		{
			name:       "429 honours retry-after-ms",
			script:     []llmtest.Step{{Status: 429, ErrorCode: "rate_limit_exceeded", Header: retryMS("50")}, llmtest.Reply("ok")},
			wantCalls:  2,
			minElapsed: 50 * time.Millisecond,
		},
		{
			name:      "500 twice then success",
			script:    []llmtest.Step{llmtest.Fail(500, ""), llmtest.Fail(502, ""), llmtest.Reply("ok")},
			wantCalls: 3,
		},
		{
			name:      "408 and 409 are retried",
			script:    []llmtest.Step{llmtest.Fail(408, ""), llmtest.Fail(409, ""), llmtest.Reply("ok")},
			wantCalls: 3,
		},
		{
			name:      "malformed chunk is retried",
			script:    []llmtest.Step{{Malformed: true}, llmtest.Reply("ok")},
			wantCalls: 2,
		},
		{
			name:      "400 is not retried",
			script:    []llmtest.Step{{Status: 400, ErrorCode: "context_length_exceeded", Text: "too long"}},
			wantCalls: 1,
			wantErr:   "status 400: context_length_exceeded: too long",
		},
		{
			name:      "401 is not retried",
			script:    []llmtest.Step{llmtest.Fail(401, "invalid_api_key")},
			wantCalls: 1,
			wantErr:   "status 401",
		},
		{
			name:      "429 insufficient_quota is not retried",
			script:    []llmtest.Step{{Status: 429, ErrorCode: "insufficient_quota", Header: retryMS("1")}},
			wantCalls: 1,
			wantErr:   "status 429: insufficient_quota",
		},
		{
			name:       "503 until retries run out",
			script:     []llmtest.Step{llmtest.Fail(503, ""), llmtest.Fail(503, ""), llmtest.Fail(503, "")},
			maxRetries: 2,
			wantCalls:  3,
			wantErr:    "status 503",
		},
		{
			name:       "negative MaxRetries means one attempt",
			script:     []llmtest.Step{llmtest.Fail(500, "")},
			maxRetries: -1,
			wantCalls:  1,
			wantErr:    "1 attempt",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, tt.script...)
			o, _ := newTestOpenAI(t, srv, Config{MaxRetries: tt.maxRetries})
			start := time.Now()
			resp, err := o.Chat(t.Context(), userAsks("hi"), nil)
			elapsed := time.Since(start)
			if got := srv.Calls(); got != tt.wantCalls {
				t.Errorf("server saw %d requests, want %d", got, tt.wantCalls)
			}
			if tt.wantErr == "" {
				if err != nil || resp.Text != "ok" {
					t.Fatalf("Chat = %q, %v; want ok", resp.Text, err)
				}
			} else if !errors.Is(err, llm.ErrModelUnavailable) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Chat error = %v; want llm.ErrModelUnavailable mentioning %q", err, tt.wantErr)
			}
			if elapsed < tt.minElapsed {
				t.Errorf("took %v, want at least %v", elapsed, tt.minElapsed)
			}
		})
	}
}

func TestOpenAIAttemptTimeout(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Hang: true}, llmtest.Step{Hang: true})
	o, _ := newTestOpenAI(t, srv, Config{RequestTimeout: 100 * time.Millisecond, MaxRetries: 1})
	start := time.Now()
	_, err := o.Chat(t.Context(), userAsks("hi"), nil)
	if !errors.Is(err, llm.ErrModelUnavailable) || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("Chat error = %v; want llm.ErrModelUnavailable after a timeout", err)
	}
	if elapsed := time.Since(start); elapsed < 200*time.Millisecond || elapsed > 2*time.Second {
		t.Errorf("took %v, want two 100ms attempts", elapsed)
	}
	if got := srv.Calls(); got != 2 {
		t.Errorf("server saw %d requests, want 2", got)
	}
}

// Once the shopper has seen part of an answer, a retry would repeat it.
func TestOpenAINoRetryAfterText(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Text: "Let me check", Hang: true}, llmtest.Reply("never sent"))
	o, _ := newTestOpenAI(t, srv, Config{RequestTimeout: 100 * time.Millisecond})
	var seen strings.Builder
	_, err := o.Chat(t.Context(), userAsks("hi"), func(s string) { seen.WriteString(s) })
	if !errors.Is(err, llm.ErrModelUnavailable) || !strings.Contains(err.Error(), "part of the answer") {
		t.Fatalf("Chat error = %v; want llm.ErrModelUnavailable after partial output", err)
	}
	if seen.String() != "Let me check" || srv.Calls() != 1 {
		t.Errorf("saw %q over %d requests; want the partial text once", seen.String(), srv.Calls())
	}
}

func TestOpenAICancelledDuringBackoff(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Status: 429, Header: http.Header{"Retry-After-Ms": {"10000"}}})
	o, _ := newTestOpenAI(t, srv, Config{})
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := o.Chat(ctx, userAsks("hi"), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Chat error = %v, want context.Canceled", err)
	}
	if elapsed := time.Since(start); elapsed > time.Second {
		t.Errorf("returned after %v, want promptly after cancel", elapsed)
	}
}

// A wait that would outlive the caller's deadline is not worth starting:
// the engine answers with the planner sooner.
func TestOpenAIRetryAfterPastDeadline(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Status: 503, RetryAfter: "10"})
	o, _ := newTestOpenAI(t, srv, Config{})
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	start := time.Now()
	_, err := o.Chat(ctx, userAsks("hi"), nil)
	if !errors.Is(err, llm.ErrModelUnavailable) {
		t.Fatalf("Chat error = %v, want llm.ErrModelUnavailable", err)
	}
	if elapsed := time.Since(start); elapsed > time.Second {
		t.Errorf("returned after %v, want at once", elapsed)
	}
}

func TestOpenAINeverLeaksKeyOrPrompt(t *testing.T) {
	const prompt = "my secret shopping list"
	srv := llmtest.NewServer(t,
		llmtest.Step{Status: 401, ErrorCode: "invalid_api_key", Text: "Incorrect API key provided: " + testKey},
	)
	o, logs := newTestOpenAI(t, srv, Config{APIKey: testKey})
	_, err := o.Chat(t.Context(), userAsks(prompt), nil)
	if !errors.Is(err, llm.ErrModelUnavailable) {
		t.Fatalf("Chat error = %v, want llm.ErrModelUnavailable", err)
	}
	for what, text := range map[string]string{"error": err.Error(), "log": logs.String()} {
		if strings.Contains(text, testKey) || strings.Contains(text, prompt) {
			t.Errorf("%s leaks the key or the prompt: %s", what, text)
		}
	}
	if !strings.Contains(err.Error(), "[redacted]") {
		t.Errorf("error = %v, want the echoed key redacted", err)
	}
}

func TestOpenAIFailsWithoutRequest(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		req  llm.ChatRequest
	}{
		{"bad base URL", Config{BaseURL: "localhost:11434"}, userAsks("hi")},
		{"role the API does not know", Config{}, llm.ChatRequest{Messages: []llm.ChatMessage{{Role: catalog.RoleMerchant, Content: "hi"}}}},
		{"schema that cannot be encoded", Config{}, llm.ChatRequest{
			Messages: userAsks("hi").Messages,
			Tools:    []llm.ToolSpec{{Name: "bad", Parameters: map[string]any{"f": func() {}}}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			tt.cfg.BaseURL = cmp.Or(tt.cfg.BaseURL, srv.URL)
			o, _ := newTestOpenAI(t, srv, tt.cfg)
			_, err := o.Chat(t.Context(), tt.req, nil)
			if !errors.Is(err, llm.ErrModelUnavailable) || strings.Contains(err.Error(), "attempt") {
				t.Errorf("Chat error = %v, want llm.ErrModelUnavailable before any attempt", err)
			}
			if srv.Calls() != 0 {
				t.Errorf("server saw %d requests, want none", srv.Calls())
			}
		})
	}
}

func TestOpenAINetworkErrorIsRetried(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: connection refused
	o, _ := newTestOpenAI(t, nil, Config{BaseURL: "http://" + addr + "/v1", MaxRetries: 1})
	_, err = o.Chat(t.Context(), userAsks("hi"), nil)
	if !errors.Is(err, llm.ErrModelUnavailable) || !strings.Contains(err.Error(), "2 attempt") {
		t.Fatalf("Chat error = %v; want llm.ErrModelUnavailable after 2 attempts", err)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header http.Header
		want   time.Duration
		wantOK bool
	}{
		{"none", http.Header{}, 0, false},
		{"seconds", http.Header{"Retry-After": {"1"}}, time.Second, true},
		{"fractional seconds", http.Header{"Retry-After": {"1.5"}}, 1500 * time.Millisecond, true},
		{"http date", http.Header{"Retry-After": {now.Add(3 * time.Second).Format(http.TimeFormat)}}, 3 * time.Second, true},
		{"date in the past", http.Header{"Retry-After": {now.Add(-time.Minute).Format(http.TimeFormat)}}, 0, true},
		{"milliseconds win", http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"9"}}, 250 * time.Millisecond, true},
		{"garbage", http.Header{"Retry-After": {"soon"}}, 0, false},
		{"negative", http.Header{"Retry-After": {"-3"}}, 0, false},
		{"bad ms falls back", http.Header{"Retry-After-Ms": {"x"}, "Retry-After": {"2"}}, 2 * time.Second, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := retryAfter(tt.header, now)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("retryAfter = %v, %v; want %v, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestBackoffWithinBounds(t *testing.T) {
	o := New(Config{})
	for attempt := 1; attempt <= 40; attempt++ {
		ceiling := min(initialBackoff<<min(attempt-1, 20), maxBackoff)
		for range 50 {
			if d := o.jitteredBackoff(attempt); d < 0 || d > ceiling {
				t.Fatalf("attempt %d: backoff %v outside [0, %v]", attempt, d, ceiling)
			}
		}
	}
	f := attemptFailure{retryable: true, after: time.Minute, hasAfter: true}
	if wait, ok := o.nextWait(t.Context(), 1, f, false); !ok || wait != maxServerWait {
		t.Errorf("Retry-After of a minute waits %v (retry %v), want the %v cap", wait, ok, maxServerWait)
	}
}

// Some servers send every tool call at index 0, told apart only by id.
func TestAccumulatorToolCallsSharingAnIndex(t *testing.T) {
	chunks := []string{
		`{"model":"llama3","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"one","arguments":"{\"x\":"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"b","type":"function","function":{"name":"two","arguments":"{}"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
	}
	var acc streamAccumulator
	for _, c := range chunks {
		var ch chunk
		if err := json.Unmarshal([]byte(c), &ch); err != nil {
			t.Fatal(err)
		}
		acc.add(ch)
	}
	got := acc.response("fallback")
	want := []catalog.ToolCall{{ID: "a", Name: "one", Arguments: `{"x":1}`}, {ID: "b", Name: "two", Arguments: "{}"}}
	if !acc.finished || got.Model != "llama3" || !reflect.DeepEqual(got.ToolCalls, want) {
		t.Errorf("finished %v, model %q, calls %+v; want true, llama3, %+v", acc.finished, got.Model, got.ToolCalls, want)
	}
}
