package loadtest

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// Model is a scripted OpenAI-compatible server on loopback.
type Model struct {
	URL     string // base URL ending in /v1
	Delay   time.Duration
	srv     *http.Server
	ln      net.Listener
	calls   atomic.Int64
	toolArg string
}

// StartModel serves the scripted model until Close. toolArgs are the
// search_products arguments it asks for.
func StartModel(delay time.Duration, toolArgs string) (*Model, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	m := &Model{URL: "http://" + ln.Addr().String() + "/v1", Delay: delay, ln: ln, toolArg: toolArgs}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", m.complete)
	m.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = m.srv.Serve(ln) }()
	return m, nil
}

// Close stops the server.
func (m *Model) Close() error { return m.srv.Close() }

// Calls is the number of completions served.
func (m *Model) Calls() int64 { return m.calls.Load() }

// request is the part of a chat completions request the script reads.
type request struct {
	Model    string `json:"model"`
	Messages []struct {
		Role string `json:"role"`
	} `json:"messages"`
}

func (m *Model) complete(w http.ResponseWriter, r *http.Request) {
	m.calls.Add(1)
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) == 0 {
		http.Error(w, `{"error":{"message":"bad request","type":"invalid_request_error"}}`, http.StatusBadRequest)
		return
	}
	if m.Delay > 0 {
		select {
		case <-time.After(m.Delay):
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	sw := &sse{w: w, model: req.Model, id: fmt.Sprintf("chatcmpl-%d", m.calls.Load())}
	if req.Messages[len(req.Messages)-1].Role == "tool" {
		sw.text("Here are a few good options.")
	} else {
		sw.toolCall(m.toolArg)
	}
}

// sse writes chat.completion.chunk events.
type sse struct {
	w     http.ResponseWriter
	model string
	id    string
}

func (s *sse) chunk(delta map[string]any, finish any, usage any) {
	c := map[string]any{
		"id": s.id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": s.model,
		"choices": []map[string]any{{"index": 0, "delta": delta, "finish_reason": finish}},
	}
	if usage != nil {
		c["choices"] = []map[string]any{}
		c["usage"] = usage
	}
	b, _ := json.Marshal(c)
	fmt.Fprintf(s.w, "data: %s\n\n", b)
}

func (s *sse) end() {
	s.chunk(nil, nil, map[string]int{"prompt_tokens": 900, "completion_tokens": 20, "total_tokens": 920})
	fmt.Fprint(s.w, "data: [DONE]\n\n")
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *sse) text(t string) {
	s.chunk(map[string]any{"role": "assistant", "content": ""}, nil, nil)
	for _, word := range strings.SplitAfter(t, " ") {
		s.chunk(map[string]any{"content": word}, nil, nil)
	}
	s.chunk(map[string]any{}, "stop", nil)
	s.end()
}

func (s *sse) toolCall(args string) {
	s.chunk(map[string]any{"role": "assistant", "tool_calls": []map[string]any{{
		"index": 0, "id": "call_" + s.id, "type": "function",
		"function": map[string]any{"name": "search_products", "arguments": args},
	}}}, nil, nil)
	s.chunk(map[string]any{}, "tool_calls", nil)
	s.end()
}
