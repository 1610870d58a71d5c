package loadtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/tidwall/gjson"
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

var bodies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func (m *Model) complete(w http.ResponseWriter, r *http.Request) {
	m.calls.Add(1)
	// Request bodies are read into pooled buffers and the script reads
	// what it needs (the model, the last message's role) in one pass with
	// gjson rather than decoding the whole request, so the fake costs
	// little of the CPU a run measures. A body without a messages array
	// whose last element has a role is refused.
	buf := bodies.Get().(*bytes.Buffer)
	defer bodies.Put(buf)
	buf.Reset()
	_, err := buf.ReadFrom(r.Body)
	body := buf.Bytes()
	// The results point into the pooled buffer (no copy of the request),
	// which is fine while this handler runs.
	raw := unsafe.String(unsafe.SliceData(body), len(body))
	var n int
	var lastRole, model string
	gjson.Parse(raw).ForEach(func(key, v gjson.Result) bool {
		switch key.Str {
		case "messages":
			v.ForEach(func(_, m gjson.Result) bool {
				n, lastRole = n+1, m.Get("role").Str
				return true
			})
			if !v.IsArray() {
				n = 0
			}
		case "model":
			model = v.String()
		}
		return true
	})
	if err != nil || n == 0 || lastRole == "" {
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
	quoted, _ := json.Marshal(model)
	sw := &sse{w: w, head: fmt.Appendf(nil, `data: {"id":"chatcmpl-%d","object":"chat.completion.chunk","created":%d,"model":%s,`, m.calls.Load(), time.Now().Unix(), quoted)}
	if lastRole == "tool" {
		sw.text("Here are a few good options.")
	} else {
		sw.toolCall(m.toolArg)
	}
}

// sse writes chat.completion.chunk events, each the shared head (id,
// object, created, model) and its own choices.
type sse struct {
	w    http.ResponseWriter
	head []byte
	buf  []byte
}

func (s *sse) chunk(rest string) {
	s.buf = append(append(append(s.buf[:0], s.head...), rest...), "}\n\n"...)
	_, _ = s.w.Write(s.buf)
}

func (s *sse) delta(delta, finish string) {
	s.chunk(`"choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]`)
}

func (s *sse) end() {
	s.chunk(`"choices":[],"usage":{"prompt_tokens":900,"completion_tokens":20,"total_tokens":920}`)
	_, _ = io.WriteString(s.w, "data: [DONE]\n\n")
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *sse) text(t string) {
	s.delta(`{"role":"assistant","content":""}`, "null")
	for _, word := range strings.SplitAfter(t, " ") {
		q, _ := json.Marshal(word)
		s.delta(`{"content":`+string(q)+`}`, "null")
	}
	s.delta("{}", `"stop"`)
	s.end()
}

func (s *sse) toolCall(args string) {
	q, _ := json.Marshal(args)
	s.delta(`{"role":"assistant","tool_calls":[{"index":0,"id":"call_`+strconv.FormatInt(time.Now().UnixNano(), 36)+`","type":"function","function":{"name":"search_products","arguments":`+string(q)+`}}]}`, "null")
	s.delta("{}", `"tool_calls"`)
	s.end()
}
