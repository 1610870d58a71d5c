package llmtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// ToolCall is one function call made by the fake model.
type ToolCall struct {
	ID        string // "call_N", unique per Server, when left empty
	Name      string
	Arguments string // raw JSON text, sent as-is
}

// Step is the answer to one request. Steps are taken in order, one per
// request; see Server.SetDefault for what happens when the script runs out.
type Step struct {
	// Text is the assistant's reply, streamed word by word when the request
	// streams. With a non-200 Status it is the error message instead.
	Text string
	// ToolCalls are streamed after Text, each call's arguments in several
	// fragments; finish_reason is then "tool_calls" instead of "stop".
	ToolCalls []ToolCall

	// Status, when neither 0 nor 200, answers with an OpenAI-style error body
	// {"error":{"message","type","code","param"}}.
	Status    int
	ErrorCode string // e.g. "insufficient_quota", "rate_limit_exceeded"

	RetryAfter string      // Retry-After response header, e.g. "1"
	Header     http.Header // more response headers, e.g. "retry-after-ms"

	// Hang stops answering until the client gives up. With no Text and no
	// ToolCalls nothing is sent, not even headers; otherwise (streaming
	// requests) the content is streamed and the stream then stalls before
	// finish_reason, like a server that dies mid-answer.
	Hang bool
	// Malformed sends a chunk that is not valid JSON right after the first
	// (role-only) chunk, then ends the stream; without streaming the whole
	// body is broken JSON.
	Malformed bool
	Delay     time.Duration // wait before answering

	Model                          string // model reported; default: the requested one
	PromptTokens, CompletionTokens int    // usage; defaults 10 and 5

	// Check, when set, runs against the decoded request before the answer.
	// It runs on the server's goroutine: report with t.Errorf, not t.Fatal.
	Check func(t testing.TB, r Request)
}

// Reply is a step that answers with text.
func Reply(text string) Step { return Step{Text: text} }

// CallTools is a step that answers with tool calls.
func CallTools(calls ...ToolCall) Step { return Step{ToolCalls: calls} }

// Fail is a step that answers with an error status and code.
func Fail(status int, code string) Step { return Step{Status: status, ErrorCode: code} }

// Request is one decoded /v1/chat/completions request.
type Request struct {
	Model         string
	Messages      []Message
	Tools         []Tool
	Stream        bool
	IncludeUsage  bool   // stream_options.include_usage
	Body          []byte // the raw JSON body, for assertions on other fields
	Authorization string // the Authorization header, "" when absent
}

// Message is one message of a request; Content joins text parts when the
// client sent an array of parts.
type Message struct {
	Role       string
	Content    string
	ToolCalls  []ToolCall
	ToolCallID string
}

// Tool is one function tool of a request.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage // the JSON schema as sent
	Strict      *bool           // nil when the client did not set strict
}

// Server is a scripted fake of the OpenAI chat completions API.
type Server struct {
	URL string // base URL ending in /v1, for OPENAI_BASE_URL

	t    testing.TB
	srv  *httptest.Server
	done chan struct{} // closed at cleanup to release hanging handlers

	mu       sync.Mutex
	script   []Step
	def      *Step
	respond  func(Request) Step
	requests []Request
	ids      int // tool call ids handed out

	models     modelList // what GET /v1/models answers
	modelCalls int
}

// modelList is the scripted answer of GET /v1/models.
type modelList struct {
	status int // 0: 200
	ids    []string
}

// NewServer starts a fake server answering with script; it is closed by
// t.Cleanup.
func NewServer(t testing.TB, script ...Step) *Server {
	t.Helper()
	s := &Server{t: t, script: slices.Clone(script), done: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.chatCompletions)
	mux.HandleFunc("GET /v1/models", s.listModels)
	mux.HandleFunc("/", s.unexpected)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/v1"
	t.Cleanup(func() {
		close(s.done)
		s.srv.Close()
	})
	return s
}

// Push appends steps to the script.
func (s *Server) Push(steps ...Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, steps...)
}

// SetDefault sets the step that answers every request once the script is
// used up (benchmarks script nothing and set only a default). Without a
// default, a request past the end of the script fails the test and gets
// HTTP 500.
func (s *Server) SetDefault(step Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.def = &step
}

// SetResponder answers every request past the script with a step chosen
// from the request itself (e.g. a tool call for a user message, text after
// a tool result), for multi-round benchmarks. It takes precedence over
// SetDefault.
func (s *Server) SetResponder(f func(Request) Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.respond = f
}

// Requests returns every chat completions request received so far, in
// arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Calls is the number of chat completions requests received so far.
func (s *Server) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// SetModels sets what GET /v1/models answers from now on: with status 200
// (or 0) the list of ids, with any other status an OpenAI-style error
// (401: a refused key; 404: a server without the list). By default it
// lists no models.
func (s *Server) SetModels(status int, ids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = modelList{status: status, ids: slices.Clone(ids)}
}

// ModelListCalls is the number of GET /v1/models requests so far.
func (s *Server) ModelListCalls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.modelCalls
}

func (s *Server) listModels(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.modelCalls++
	m := s.models
	s.mu.Unlock()
	if m.status != 0 && m.status != http.StatusOK {
		writeError(w, Step{Status: m.status})
		return
	}
	type model struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Created int64  `json:"created"`
		OwnedBy string `json:"owned_by"`
	}
	list := struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{Object: "list", Data: []model{}}
	for _, id := range m.ids {
		list.Data = append(list.Data, model{ID: id, Object: "model", Created: 1700000000, OwnedBy: "llmtest"})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(list)
}

func (s *Server) unexpected(w http.ResponseWriter, r *http.Request) {
	s.t.Errorf("llmtest: unexpected request %s %s (the client's base URL must be Server.URL)", r.Method, r.URL.Path)
	writeError(w, Step{Status: http.StatusNotFound, Text: "llmtest: unknown endpoint"})
}

func (s *Server) chatCompletions(w http.ResponseWriter, r *http.Request) {
	req, err := decodeRequest(r)
	if err == nil {
		err = validate(req)
	}
	if err != nil {
		// The real API rejects such a request before any model runs, so it
		// takes no step; it is still a bug in the client, so the test fails.
		n := s.record(req)
		s.t.Errorf("llmtest: request %d: %v", n, err)
		writeError(w, Step{Status: http.StatusBadRequest, Text: err.Error()})
		return
	}
	step, n, ok := s.take(req)
	if !ok {
		s.t.Errorf("llmtest: request %d arrived after every scripted step was used, and there is no default (Server.SetDefault)", n)
		writeError(w, Step{Status: http.StatusInternalServerError, Text: "llmtest: script exhausted"})
		return
	}
	if step.Check != nil {
		step.Check(s.t, req)
	}
	if !s.wait(r.Context(), step.Delay) {
		return
	}
	s.answer(w, r, req, step, n)
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request, req Request, step Step, n int) {
	a := answer{step: step, id: fmt.Sprintf("chatcmpl-llmtest-%d", n), model: req.Model, created: time.Now().Unix()}
	if step.Model != "" {
		a.model = step.Model
	}
	switch {
	case step.Status != 0 && step.Status != http.StatusOK:
		writeError(w, step)
	case step.Hang && (!req.Stream || (step.Text == "" && len(step.ToolCalls) == 0)):
		s.hang(r.Context())
	case req.Stream:
		sw := newStreamWriter(w, a)
		sw.run(req.IncludeUsage, func() { s.hang(r.Context()) })
	default:
		a.writeCompletion(w)
	}
}

// record keeps a request and returns its 1-based number.
func (s *Server) record(req Request) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req)
	return len(s.requests)
}

// take records a request and pops the step that answers it, with tool call
// ids filled in.
func (s *Server) take(req Request) (step Step, n int, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req)
	n = len(s.requests)
	switch {
	case len(s.script) > 0:
		step, s.script = s.script[0], s.script[1:]
	case s.respond != nil:
		step = s.respond(req)
	case s.def != nil:
		step = *s.def
	default:
		return Step{}, n, false
	}
	// Copy before filling ids: the default step's slice is shared.
	step.ToolCalls = slices.Clone(step.ToolCalls)
	for i := range step.ToolCalls {
		if step.ToolCalls[i].ID == "" {
			s.ids++
			step.ToolCalls[i].ID = fmt.Sprintf("call_%d", s.ids)
		}
	}
	return step, n, true
}

// wait sleeps for d, returning false early when the client went away or
// the server is closing.
func (s *Server) wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.done:
		return false
	}
}

// hang blocks until the client gives up or the server is closing.
func (s *Server) hang(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-s.done:
	}
}

// wireToolCall is a tool call as it appears in request and response messages.
type wireToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

func decodeRequest(r *http.Request) (Request, error) {
	req := Request{Authorization: r.Header.Get("Authorization")}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return req, fmt.Errorf("read body: %w", err)
	}
	req.Body = body
	// gjson reads the fields in place: a full decode of every request
	// (tool schemas included) would make the fake cost more CPU than the
	// client it serves, which benchmarks count.
	if !gjson.ValidBytes(body) {
		return req, fmt.Errorf("decode body: not valid JSON")
	}
	top := gjson.ParseBytes(body)
	if !top.IsObject() {
		return req, fmt.Errorf("decode body: not a JSON object")
	}
	var msgs, tools gjson.Result
	top.ForEach(func(k, v gjson.Result) bool { // one pass over the body
		switch k.Str {
		case "model":
			req.Model = v.String()
		case "stream":
			req.Stream = v.Bool()
		case "stream_options":
			req.IncludeUsage = v.Get("include_usage").Bool()
		case "messages":
			msgs = v
		case "tools":
			tools = v
		}
		return true
	})
	if msgs.Exists() && !msgs.IsArray() {
		return req, fmt.Errorf("decode body: messages is not an array")
	}
	msgs.ForEach(func(_, m gjson.Result) bool {
		var msg Message
		var content gjson.Result
		m.ForEach(func(k, v gjson.Result) bool {
			switch k.Str {
			case "role":
				msg.Role = v.String()
			case "content":
				content = v
			case "tool_call_id":
				msg.ToolCallID = v.String()
			case "tool_calls":
				v.ForEach(func(_, tc gjson.Result) bool {
					msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: tc.Get("id").String(), Name: tc.Get("function.name").String(), Arguments: tc.Get("function.arguments").String()})
					return true
				})
			}
			return true
		})
		if msg.Content, err = contentText(content); err != nil {
			err = fmt.Errorf("messages[%d]: %w", len(req.Messages), err)
			return false
		}
		req.Messages = append(req.Messages, msg)
		return true
	})
	if err != nil {
		return req, err
	}
	if tools.Exists() && !tools.IsArray() {
		return req, fmt.Errorf("decode body: tools is not an array")
	}
	tools.ForEach(func(_, t gjson.Result) bool {
		f := t.Get("function")
		tool := Tool{Name: f.Get("name").String(), Description: f.Get("description").String()}
		if p := f.Get("parameters"); p.Exists() {
			tool.Parameters = json.RawMessage(p.Raw)
		}
		if st := f.Get("strict"); st.Exists() {
			v := st.Bool()
			tool.Strict = &v
		}
		req.Tools = append(req.Tools, tool)
		return true
	})
	return req, nil
}

// contentText accepts both content shapes of the API: a string, or an array
// of parts whose text parts are joined.
func contentText(v gjson.Result) (string, error) {
	switch {
	case !v.Exists() || v.Type == gjson.Null:
		return "", nil
	case v.Type == gjson.String:
		return v.String(), nil
	case !v.IsArray():
		return "", fmt.Errorf("content is neither a string nor an array of parts")
	}
	var b strings.Builder
	for _, p := range v.Array() {
		b.WriteString(p.Get("text").String())
	}
	return b.String(), nil
}

// validate rejects what the real API rejects with a 400 and a client is
// most likely to get wrong: no model, no messages, and tool results that do
// not pair up with the assistant's tool calls.
func validate(req Request) error {
	if req.Model == "" {
		return fmt.Errorf("you must provide a model parameter")
	}
	if len(req.Messages) == 0 {
		return fmt.Errorf("messages must not be empty")
	}
	pending := map[string]bool{} // tool call ids still waiting for their tool message
	for i, m := range req.Messages {
		if m.Role != "tool" && len(pending) > 0 {
			return fmt.Errorf("messages[%d]: an assistant message with tool_calls must be followed by tool messages responding to each tool_call_id", i)
		}
		switch m.Role {
		case "system", "developer", "user":
		case "assistant":
			for _, tc := range m.ToolCalls {
				pending[tc.ID] = true
			}
		case "tool":
			if !pending[m.ToolCallID] {
				return fmt.Errorf("messages[%d]: tool message answers tool_call_id %q, which no preceding assistant message called", i, m.ToolCallID)
			}
			delete(pending, m.ToolCallID)
		default:
			return fmt.Errorf("messages[%d]: invalid role %q", i, m.Role)
		}
	}
	if len(pending) > 0 {
		return fmt.Errorf("the last assistant message has tool_calls without tool messages responding to them")
	}
	return nil
}

func setHeaders(w http.ResponseWriter, step Step) {
	if step.RetryAfter != "" {
		w.Header().Set("Retry-After", step.RetryAfter)
	}
	for k, vs := range step.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
}

func writeError(w http.ResponseWriter, step Step) {
	msg := step.Text
	if msg == "" {
		msg = fmt.Sprintf("llmtest: scripted %d %s", step.Status, http.StatusText(step.Status))
	}
	var body struct {
		Error struct {
			Message string  `json:"message"`
			Type    string  `json:"type"`
			Param   *string `json:"param"`
			Code    *string `json:"code"`
		} `json:"error"`
	}
	body.Error.Message, body.Error.Type = msg, errorType(step)
	if step.ErrorCode != "" {
		body.Error.Code = &step.ErrorCode
	}
	setHeaders(w, step)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(step.Status)
	_ = json.NewEncoder(w).Encode(body)
}

// errorType mirrors the "type" the real API pairs with a status.
func errorType(step Step) string {
	switch {
	case step.ErrorCode == "insufficient_quota":
		return "insufficient_quota"
	case step.Status == http.StatusTooManyRequests:
		return "requests"
	case step.Status >= 500:
		return "server_error"
	default:
		return "invalid_request_error"
	}
}

// answer is one scripted step being written out as a completion.
type answer struct {
	step    Step
	id      string
	model   string
	created int64
}

func (a answer) finishReason() string {
	if len(a.step.ToolCalls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func (a answer) usage() *usage {
	u := usage{PromptTokens: a.step.PromptTokens, CompletionTokens: a.step.CompletionTokens}
	if u.PromptTokens == 0 {
		u.PromptTokens = 10
	}
	if u.CompletionTokens == 0 {
		u.CompletionTokens = 5
	}
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	return &u
}

// writeCompletion answers a non-streaming request with one chat.completion.
func (a answer) writeCompletion(w http.ResponseWriter) {
	setHeaders(w, a.step)
	w.Header().Set("Content-Type", "application/json")
	if a.step.Malformed {
		_, _ = io.WriteString(w, `{"id": "chatcmpl-broken", "choices": [`)
		return
	}
	type message struct {
		Role      string         `json:"role"`
		Content   *string        `json:"content"`
		ToolCalls []wireToolCall `json:"tool_calls,omitempty"`
		Refusal   *string        `json:"refusal"`
	}
	msg := message{Role: "assistant"}
	if a.step.Text != "" || len(a.step.ToolCalls) == 0 {
		msg.Content = &a.step.Text
	}
	for _, tc := range a.step.ToolCalls {
		wtc := wireToolCall{ID: tc.ID, Type: "function"}
		wtc.Function.Name, wtc.Function.Arguments = tc.Name, tc.Arguments
		msg.ToolCalls = append(msg.ToolCalls, wtc)
	}
	type choice struct {
		Index        int       `json:"index"`
		Message      message   `json:"message"`
		Logprobs     *struct{} `json:"logprobs"`
		FinishReason string    `json:"finish_reason"`
	}
	_ = json.NewEncoder(w).Encode(struct {
		ID      string   `json:"id"`
		Object  string   `json:"object"`
		Created int64    `json:"created"`
		Model   string   `json:"model"`
		Choices []choice `json:"choices"`
		Usage   *usage   `json:"usage"`
	}{a.id, "chat.completion", a.created, a.model, []choice{{Message: msg, FinishReason: a.finishReason()}}, a.usage()})
}

// Streaming wire types: one chat.completion.chunk per SSE event.
type (
	chunk struct {
		ID      string        `json:"id"`
		Object  string        `json:"object"`
		Created int64         `json:"created"`
		Model   string        `json:"model"`
		Choices []chunkChoice `json:"choices"`
		Usage   *usage        `json:"usage,omitempty"`
	}
	chunkChoice struct {
		Index        int       `json:"index"`
		Delta        delta     `json:"delta"`
		Logprobs     *struct{} `json:"logprobs"`
		FinishReason *string   `json:"finish_reason"`
	}
	delta struct {
		Role      string          `json:"role,omitempty"`
		Content   *string         `json:"content,omitempty"`
		ToolCalls []deltaToolCall `json:"tool_calls,omitempty"`
	}
	deltaToolCall struct {
		Index    int    `json:"index"`
		ID       string `json:"id,omitempty"`
		Type     string `json:"type,omitempty"`
		Function struct {
			Name      string `json:"name,omitempty"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	}
)

// streamWriter writes one answer as server-sent events, the way the real
// API orders them: a role chunk, content chunks, each tool call (its first
// chunk with id, type and name, then argument fragments), a finish chunk,
// the usage chunk when asked for, and [DONE].
type streamWriter struct {
	w     http.ResponseWriter
	flush func()
	a     answer
	buf   []byte
}

func newStreamWriter(w http.ResponseWriter, a answer) *streamWriter {
	flush := func() {}
	if f, ok := w.(http.Flusher); ok {
		flush = f.Flush
	}
	return &streamWriter{w: w, flush: flush, a: a}
}

// run streams the answer; hang is called instead of finishing when the
// step stalls mid-stream.
func (sw *streamWriter) run(includeUsage bool, hang func()) {
	step := sw.a.step
	setHeaders(sw.w, step)
	sw.w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	sw.w.Header().Set("Cache-Control", "no-cache")
	sw.w.WriteHeader(http.StatusOK)

	first := delta{Role: "assistant"}
	if len(step.ToolCalls) == 0 {
		first.Content = new(string) // the real API opens text answers with content ""
	}
	sw.sendDelta(first)
	if step.Malformed {
		sw.event([]byte(`{"id": "chatcmpl-broken", "choices": [{"delta": {"content": "x"`))
		return
	}
	for _, word := range strings.SplitAfter(step.Text, " ") {
		if word != "" {
			sw.sendDelta(delta{Content: &word})
		}
	}
	for i, tc := range step.ToolCalls {
		sw.sendToolCall(i, tc)
	}
	if step.Hang {
		hang()
		return
	}
	reason := sw.a.finishReason()
	sw.chunk(chunk{Choices: []chunkChoice{{FinishReason: &reason}}})
	if includeUsage {
		sw.chunk(chunk{Choices: []chunkChoice{}, Usage: sw.a.usage()})
	}
	sw.event([]byte("[DONE]"))
}

func (sw *streamWriter) sendDelta(d delta) {
	sw.chunk(chunk{Choices: []chunkChoice{{Delta: d}}})
}

// sendToolCall streams one call: id, type and name with empty arguments
// first, then the arguments in fragments, as the real API does.
func (sw *streamWriter) sendToolCall(index int, tc ToolCall) {
	head := deltaToolCall{Index: index, ID: tc.ID, Type: "function"}
	head.Function.Name = tc.Name
	sw.sendDelta(delta{ToolCalls: []deltaToolCall{head}})
	for _, frag := range fragments(tc.Arguments, 3) {
		part := deltaToolCall{Index: index}
		part.Function.Arguments = frag
		sw.sendDelta(delta{ToolCalls: []deltaToolCall{part}})
	}
}

func (sw *streamWriter) chunk(c chunk) {
	c.ID, c.Object, c.Created, c.Model = sw.a.id, "chat.completion.chunk", sw.a.created, sw.a.model
	b, _ := json.Marshal(c) // plain structs of strings and ints: cannot fail
	sw.event(b)
}

func (sw *streamWriter) event(data []byte) {
	sw.buf = append(sw.buf[:0], "data: "...)
	sw.buf = append(sw.buf, data...)
	sw.buf = append(sw.buf, "\n\n"...)
	_, _ = sw.w.Write(sw.buf)
	sw.flush()
}

// fragments splits s into at most n pieces of similar size, cutting only
// at rune boundaries.
func fragments(s string, n int) []string {
	size := max(1, (len(s)+n-1)/n)
	var out []string
	for len(s) > 0 {
		cut := min(size, len(s))
		for cut < len(s) && !utf8.RuneStart(s[cut]) {
			cut++
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return out
}
