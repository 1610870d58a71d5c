package llmtest_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"shopbot/engine/llmtest"
)

// recordingTB captures the server's test failures instead of failing the
// test, for cases where the server is supposed to complain.
type recordingTB struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recordingTB) Errors() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errors...)
}

var userHi = []map[string]any{{"role": "user", "content": "hi"}}

func chatBody(stream, includeUsage bool, messages []map[string]any) map[string]any {
	body := map[string]any{"model": "gpt-test", "messages": messages, "stream": stream}
	if includeUsage {
		body["stream_options"] = map[string]any{"include_usage": true}
	}
	return body
}

func post(t *testing.T, ctx context.Context, url string, body any) (*http.Response, error) {
	t.Helper()
	raw, ok := body.(string)
	if !ok {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		raw = string(b)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/chat/completions", strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer sk-fake")
	return http.DefaultClient.Do(req)
}

func mustPost(t *testing.T, url string, body any) *http.Response {
	t.Helper()
	resp, err := post(t, t.Context(), url, body)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// events reads the data payloads of an SSE stream.
func events(t *testing.T, r io.Reader) []string {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, data)
		} else if sc.Text() != "" {
			t.Errorf("unexpected SSE line %q", sc.Text())
		}
	}
	return out
}

type wireChunk struct {
	Object  string `json:"object"`
	Model   string `json:"model"`
	Choices []struct {
		Delta struct {
			Role      string  `json:"role"`
			Content   *string `json:"content"`
			ToolCalls []struct {
				Index    *int   `json:"index"`
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      *string `json:"name"`
					Arguments *string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	} `json:"usage"`
}

// assembled is what a client rebuilds from a stream.
type assembled struct {
	text         string
	calls        []llmtest.ToolCall
	finish       string
	usage        [3]int
	textChunks   int
	argFragments int
}

// assemble checks the stream's shape the way a strict client would and
// rebuilds the answer.
func assemble(t *testing.T, data []string) assembled {
	t.Helper()
	if len(data) == 0 || data[len(data)-1] != "[DONE]" {
		t.Fatalf("stream does not end with [DONE]: %q", data)
	}
	var a assembled
	for i, d := range data[:len(data)-1] {
		var c wireChunk
		if err := json.Unmarshal([]byte(d), &c); err != nil {
			t.Fatalf("chunk %d is not JSON: %v", i, err)
		}
		if c.Object != "chat.completion.chunk" || c.Model != "gpt-test" {
			t.Errorf("chunk %d: object %q model %q", i, c.Object, c.Model)
		}
		if a.finish != "" && len(c.Choices) > 0 {
			t.Errorf("chunk %d has choices after finish_reason", i)
		}
		if c.Usage != nil {
			a.usage = [3]int{c.Usage.PromptTokens, c.Usage.CompletionTokens, c.Usage.TotalTokens}
		}
		for _, ch := range c.Choices {
			if ch.Delta.Content != nil && *ch.Delta.Content != "" {
				a.text += *ch.Delta.Content
				a.textChunks++
			}
			for _, tc := range ch.Delta.ToolCalls {
				a.addToolCall(t, i, tc.Index, tc.ID, tc.Type, tc.Function.Name, tc.Function.Arguments)
			}
			if ch.FinishReason != nil {
				a.finish = *ch.FinishReason
			}
		}
	}
	return a
}

func (a *assembled) addToolCall(t *testing.T, chunk int, index *int, id, typ string, name, args *string) {
	t.Helper()
	switch {
	case index == nil || args == nil:
		t.Errorf("chunk %d: tool call without index or arguments", chunk)
	case *index == len(a.calls): // first chunk of a call: id, type, name, empty arguments
		if id == "" || typ != "function" || name == nil || *args != "" {
			t.Errorf("chunk %d: first tool call chunk id %q type %q name %v args %q", chunk, id, typ, name, *args)
			return
		}
		a.calls = append(a.calls, llmtest.ToolCall{ID: id, Name: *name})
	case *index == len(a.calls)-1 && id == "" && name == nil:
		a.calls[*index].Arguments += *args
		a.argFragments++
	default:
		t.Errorf("chunk %d: tool call fragment out of order (index %d, id %q)", chunk, *index, id)
	}
}

func TestStreamingWireFormat(t *testing.T) {
	tests := []struct {
		name         string
		step         llmtest.Step
		includeUsage bool
		want         assembled
	}{
		{
			name:         "text in several chunks with usage",
			step:         llmtest.Step{Text: "Red sneakers, size 42, in stock.", PromptTokens: 30, CompletionTokens: 8},
			includeUsage: true,
			want:         assembled{text: "Red sneakers, size 42, in stock.", finish: "stop", usage: [3]int{30, 8, 38}},
		},
		{
			name: "no usage chunk unless asked",
			step: llmtest.Reply("ok"),
			want: assembled{text: "ok", finish: "stop"},
		},
		{
			name: "two tool calls",
			step: llmtest.CallTools(
				llmtest.ToolCall{Name: "search_products", Arguments: `{"query":"red sneakers","limit":5}`},
				llmtest.ToolCall{ID: "call_x", Name: "get_categories", Arguments: `{}`},
			),
			includeUsage: true,
			want: assembled{finish: "tool_calls", usage: [3]int{10, 5, 15}, calls: []llmtest.ToolCall{
				{ID: "call_1", Name: "search_products", Arguments: `{"query":"red sneakers","limit":5}`},
				{ID: "call_x", Name: "get_categories", Arguments: `{}`},
			}},
		},
		{
			name: "text then a tool call",
			step: llmtest.Step{Text: "Looking.", ToolCalls: []llmtest.ToolCall{{Name: "view_cart", Arguments: `{}`}}},
			want: assembled{text: "Looking.", finish: "tool_calls", calls: []llmtest.ToolCall{{ID: "call_1", Name: "view_cart", Arguments: `{}`}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, tt.step)
			resp := mustPost(t, srv.URL, chatBody(true, tt.includeUsage, userHi))
			if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || !strings.HasPrefix(ct, "text/event-stream") {
				t.Fatalf("status %d content type %q", resp.StatusCode, ct)
			}
			got := assemble(t, events(t, resp.Body))
			if got.text != tt.want.text || got.finish != tt.want.finish || got.usage != tt.want.usage || !reflect.DeepEqual(got.calls, tt.want.calls) {
				t.Errorf("assembled %+v\nwant %+v", got, tt.want)
			}
			if strings.Count(tt.want.text, " ") > 1 && got.textChunks < 3 {
				t.Errorf("text came in %d chunks, want it split", got.textChunks)
			}
			if len(tt.want.calls) > 0 && got.argFragments < len(tt.want.calls)+1 {
				t.Errorf("arguments came in %d fragments, want them split", got.argFragments)
			}
		})
	}
}

func TestNonStreamingCompletion(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{
		Text: "Here you go.", Model: "gpt-test-2025",
		ToolCalls: []llmtest.ToolCall{{ID: "call_9", Name: "view_cart", Arguments: `{}`}},
	})
	resp := mustPost(t, srv.URL, chatBody(false, false, userHi))
	var got struct {
		Object  string `json:"object"`
		Model   string `json:"model"`
		Choices []struct {
			Message struct {
				Role      string `json:"role"`
				Content   string `json:"content"`
				ToolCalls []struct {
					ID       string `json:"id"`
					Type     string `json:"type"`
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage struct {
			TotalTokens int `json:"total_tokens"`
		} `json:"usage"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if got.Object != "chat.completion" || got.Model != "gpt-test-2025" || len(got.Choices) != 1 || got.Usage.TotalTokens != 15 {
		t.Fatalf("completion = %+v", got)
	}
	c := got.Choices[0]
	if c.Message.Role != "assistant" || c.Message.Content != "Here you go." || c.FinishReason != "tool_calls" ||
		len(c.Message.ToolCalls) != 1 || c.Message.ToolCalls[0].ID != "call_9" || c.Message.ToolCalls[0].Type != "function" ||
		c.Message.ToolCalls[0].Function.Name != "view_cart" || c.Message.ToolCalls[0].Function.Arguments != "{}" {
		t.Errorf("choice = %+v", c)
	}
}

func TestErrorSteps(t *testing.T) {
	tests := []struct {
		name                 string
		step                 llmtest.Step
		wantType, wantCode   string
		wantHeader, wantVal  string
		wantMessageSubstring string
	}{
		{"quota", llmtest.Fail(429, "insufficient_quota"), "insufficient_quota", "insufficient_quota", "", "", "429"},
		{"rate limit with Retry-After", llmtest.Step{Status: 429, ErrorCode: "rate_limit_exceeded", RetryAfter: "1"}, "requests", "rate_limit_exceeded", "Retry-After", "1", "429"},
		{"retry-after-ms", llmtest.Step{Status: 503, Header: http.Header{"Retry-After-Ms": {"50"}}}, "server_error", "", "Retry-After-Ms", "50", "503"},
		{"bad request message", llmtest.Step{Status: 400, Text: "context too long"}, "invalid_request_error", "", "", "", "context too long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, tt.step)
			resp := mustPost(t, srv.URL, chatBody(true, true, userHi))
			var body struct {
				Error struct {
					Message string  `json:"message"`
					Type    string  `json:"type"`
					Code    *string `json:"code"`
				} `json:"error"`
			}
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatal(err)
			}
			code := ""
			if body.Error.Code != nil {
				code = *body.Error.Code
			}
			if resp.StatusCode != tt.step.Status || body.Error.Type != tt.wantType || code != tt.wantCode ||
				!strings.Contains(body.Error.Message, tt.wantMessageSubstring) {
				t.Errorf("status %d body %+v code %q", resp.StatusCode, body.Error, code)
			}
			if tt.wantHeader != "" && resp.Header.Get(tt.wantHeader) != tt.wantVal {
				t.Errorf("%s = %q, want %q", tt.wantHeader, resp.Header.Get(tt.wantHeader), tt.wantVal)
			}
		})
	}
}

func TestMalformed(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Malformed: true, Text: "never"}, llmtest.Step{Malformed: true})
	data := events(t, mustPost(t, srv.URL, chatBody(true, true, userHi)).Body)
	if len(data) != 2 || !json.Valid([]byte(data[0])) || json.Valid([]byte(data[1])) {
		t.Errorf("stream = %q, want a role chunk then a broken one", data)
	}
	body, _ := io.ReadAll(mustPost(t, srv.URL, chatBody(false, false, userHi)).Body)
	if json.Valid(body) {
		t.Errorf("non-streaming body %q is valid JSON", body)
	}
}

func TestScriptExhaustedAndDefault(t *testing.T) {
	rec := &recordingTB{TB: t}
	srv := llmtest.NewServer(rec, llmtest.Reply("first"))
	mustPost(t, srv.URL, chatBody(false, false, userHi))
	if resp := mustPost(t, srv.URL, chatBody(false, false, userHi)); resp.StatusCode != 500 {
		t.Errorf("past the script: status %d, want 500", resp.StatusCode)
	}
	if errs := rec.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "every scripted step was used") {
		t.Errorf("server reported %q, want one script-exhausted error", errs)
	}
	srv.SetDefault(llmtest.Reply("again"))
	srv.Push(llmtest.Reply("pushed"))
	for _, want := range []string{"pushed", "again", "again"} {
		data := events(t, mustPost(t, srv.URL, chatBody(true, false, userHi)).Body)
		if got := assemble(t, data); got.text != want {
			t.Errorf("got %q, want %q", got.text, want)
		}
	}
	if srv.Calls() != 5 {
		t.Errorf("Calls = %d, want 5", srv.Calls())
	}
}

// The real API rejects these with a 400 before any model runs; so does the
// fake, and it fails the test because the client should never send them.
func TestInvalidRequestsAreRejected(t *testing.T) {
	call := map[string]any{"id": "call_1", "type": "function", "function": map[string]any{"name": "view_cart", "arguments": "{}"}}
	assistant := map[string]any{"role": "assistant", "tool_calls": []any{call}}
	tests := []struct {
		name string
		body any
		want string
	}{
		{"not JSON", `{"model":`, "decode body"},
		{"no model", map[string]any{"messages": userHi}, "model"},
		{"no messages", map[string]any{"model": "m", "messages": []any{}}, "messages"},
		{"unanswered tool call", chatBody(false, false, []map[string]any{userHi[0], assistant, userHi[0]}), "must be followed by tool messages"},
		{"trailing unanswered tool call", chatBody(false, false, []map[string]any{userHi[0], assistant}), "without tool messages"},
		{"tool result for no call", chatBody(false, false, []map[string]any{userHi[0], {"role": "tool", "tool_call_id": "call_7", "content": "{}"}}), "call_7"},
		{"unknown role", chatBody(false, false, []map[string]any{{"role": "merchant", "content": "hi"}}), "invalid role"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recordingTB{TB: t}
			srv := llmtest.NewServer(rec, llmtest.Reply("unused"))
			if resp := mustPost(t, srv.URL, tt.body); resp.StatusCode != 400 {
				t.Errorf("status %d, want 400", resp.StatusCode)
			}
			if errs := rec.Errors(); len(errs) != 1 || !strings.Contains(errs[0], tt.want) {
				t.Errorf("server reported %q, want one error mentioning %q", errs, tt.want)
			}
			// The rejected request took no step.
			data := events(t, mustPost(t, srv.URL, chatBody(true, false, userHi)).Body)
			if got := assemble(t, data); got.text != "unused" {
				t.Errorf("next answer %q, want the first step", got.text)
			}
		})
	}
}

func TestRequestsAreDecoded(t *testing.T) {
	checked := make(chan llmtest.Request, 1)
	srv := llmtest.NewServer(t, llmtest.Step{Text: "ok", Check: func(t testing.TB, r llmtest.Request) { checked <- r }})
	body := chatBody(true, true, []map[string]any{
		{"role": "system", "content": []any{map[string]any{"type": "text", "text": "Be "}, map[string]any{"type": "text", "text": "brief."}}},
		{"role": "user", "content": "cart?"},
		{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "c1", "type": "function", "function": map[string]any{"name": "view_cart", "arguments": "{}"}}}},
		{"role": "tool", "tool_call_id": "c1", "content": `{"items":[]}`},
	})
	body["tools"] = []any{map[string]any{"type": "function", "function": map[string]any{
		"name": "view_cart", "description": "Show the cart.", "strict": false,
		"parameters": map[string]any{"type": "object", "additionalProperties": false},
	}}}
	mustPost(t, srv.URL, body)

	got, seen := srv.Requests(), <-checked
	if len(got) != 1 || !reflect.DeepEqual(got[0], seen) {
		t.Fatalf("Requests() = %+v, Check saw %+v", got, seen)
	}
	r := got[0]
	wantMessages := []llmtest.Message{
		{Role: "system", Content: "Be brief."},
		{Role: "user", Content: "cart?"},
		{Role: "assistant", ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "view_cart", Arguments: "{}"}}},
		{Role: "tool", ToolCallID: "c1", Content: `{"items":[]}`},
	}
	if !reflect.DeepEqual(r.Messages, wantMessages) {
		t.Errorf("messages = %+v\nwant %+v", r.Messages, wantMessages)
	}
	if r.Model != "gpt-test" || !r.Stream || !r.IncludeUsage || r.Authorization != "Bearer sk-fake" || len(r.Body) == 0 {
		t.Errorf("request = %+v", r)
	}
	if len(r.Tools) != 1 || r.Tools[0].Name != "view_cart" || r.Tools[0].Description != "Show the cart." ||
		r.Tools[0].Strict == nil || *r.Tools[0].Strict || string(r.Tools[0].Parameters) != `{"additionalProperties":false,"type":"object"}` {
		t.Errorf("tools = %+v", r.Tools)
	}
}

func TestHangAndDelay(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{Hang: true},
		llmtest.Step{Text: "Let me check", Hang: true},
		llmtest.Step{Text: "late", Delay: 30 * time.Millisecond},
	)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := post(t, ctx, srv.URL, chatBody(true, false, userHi)); err == nil {
		t.Error("hanging step answered")
	}

	ctx, cancel = context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	resp, err := post(t, ctx, srv.URL, chatBody(true, false, userHi))
	if err != nil {
		t.Fatalf("mid-stream hang sent no headers: %v", err)
	}
	data := events(t, resp.Body) // ends when the deadline cuts the stream
	resp.Body.Close()
	if len(data) == 0 || strings.Contains(strings.Join(data, ""), "finish_reason\":\"") || data[len(data)-1] == "[DONE]" {
		t.Errorf("mid-stream hang sent %q, want content without a finish", data)
	}

	start := time.Now()
	mustPost(t, srv.URL, chatBody(false, false, userHi))
	if elapsed := time.Since(start); elapsed < 30*time.Millisecond {
		t.Errorf("delayed step answered after %v", elapsed)
	}
}

func TestConcurrentRequests(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.SetDefault(llmtest.CallTools(llmtest.ToolCall{Name: "view_cart", Arguments: "{}"}))
	const n = 32
	ids := make(chan string, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			resp, err := post(t, t.Context(), srv.URL, chatBody(true, true, userHi))
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			data := events(t, resp.Body)
			for _, c := range assemble(t, data).calls {
				ids <- c.ID
			}
		})
	}
	wg.Wait()
	close(ids)
	seen := map[string]bool{}
	for id := range ids {
		if seen[id] {
			t.Errorf("tool call id %s handed out twice", id)
		}
		seen[id] = true
	}
	if len(seen) != n || srv.Calls() != n || len(srv.Requests()) != n {
		t.Errorf("%d ids, %d calls, %d requests; want %d each", len(seen), srv.Calls(), len(srv.Requests()), n)
	}
}

func BenchmarkStreamingReply(b *testing.B) {
	srv := llmtest.NewServer(b)
	srv.SetDefault(llmtest.Reply("Red sneakers are in stock in sizes 40 to 44, from 59.90 EUR."))
	body, _ := json.Marshal(chatBody(true, true, userHi))
	client := &http.Client{}
	for b.Loop() {
		resp, err := client.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader(string(body)))
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}
