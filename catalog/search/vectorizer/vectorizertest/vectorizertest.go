package vectorizertest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Request is one request the server received.
type Request struct {
	Model          string
	Input          []string
	Dimensions     int
	EncodingFormat string
	Authorization  string
}

// Server is a fake embeddings endpoint. It is safe for concurrent requests.
type Server struct {
	// URL is the base URL to configure clients with; it ends in /v1.
	URL string

	t      testing.TB
	vector func(string) []float32

	mu       sync.Mutex
	requests []Request
	failures []int // statuses for the next requests
}

// DefaultDim is the length of the vectors a Server makes up when it has no
// vector function.
const DefaultDim = 8

// NewServer starts a fake answering with vector(text) for each input (nil:
// a vector made up from a hash of the text) and stops it when the test
// ends.
func NewServer(t testing.TB, vector func(text string) []float32) *Server {
	t.Helper()
	if vector == nil {
		vector = hashVector
	}
	s := &Server{t: t, vector: vector}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/embeddings", s.embeddings)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	s.URL = srv.URL + "/v1"
	return s
}

// Fail makes the next len(statuses) requests answer with these HTTP
// statuses and an OpenAI-style error body, in order.
func (s *Server) Fail(statuses ...int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = append(s.failures, statuses...)
}

// Requests returns the requests received so far, failed ones included.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

type wireRequest struct {
	Input          json.RawMessage `json:"input"`
	Model          string          `json:"model"`
	Dimensions     int             `json:"dimensions"`
	EncodingFormat string          `json:"encoding_format"`
}

type wireEmbedding struct {
	Object    string    `json:"object"`
	Index     int       `json:"index"`
	Embedding []float32 `json:"embedding"`
}

type wireResponse struct {
	Object string          `json:"object"`
	Data   []wireEmbedding `json:"data"`
	Model  string          `json:"model"`
	Usage  struct {
		PromptTokens int `json:"prompt_tokens"`
		TotalTokens  int `json:"total_tokens"`
	} `json:"usage"`
}

func (s *Server) embeddings(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return // the client has gone: it cancelled the request
	}
	var req wireRequest
	if err := json.Unmarshal(body, &req); err != nil {
		s.reject(w, "body is not JSON: "+err.Error())
		return
	}
	input, err := inputs(req.Input)
	if err != nil {
		s.reject(w, err.Error())
		return
	}
	if status, failing := s.record(Request{Model: req.Model, Input: input, Dimensions: req.Dimensions,
		EncodingFormat: req.EncodingFormat, Authorization: r.Header.Get("Authorization")}); failing {
		writeError(w, status, "injected failure", "server_error")
		return
	}
	if req.Model == "" {
		s.reject(w, "you must provide a model parameter")
		return
	}
	if req.EncodingFormat != "" && req.EncodingFormat != "float" {
		s.reject(w, "this fake answers encoding_format float only")
		return
	}
	resp := wireResponse{Object: "list", Model: req.Model}
	for i, text := range input {
		resp.Data = append(resp.Data, wireEmbedding{Object: "embedding", Index: i, Embedding: s.embed(text, req.Dimensions)})
		resp.Usage.PromptTokens += len(strings.Fields(text))
	}
	resp.Usage.TotalTokens = resp.Usage.PromptTokens
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp) // fails only when the client has gone
}

// inputs decodes "input": a string or an array of strings, as the real
// API takes them, each non-empty, at most 2,048.
func inputs(raw json.RawMessage) ([]string, error) {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		raw, _ = json.Marshal([]string{one})
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, fmt.Errorf("input must be a string or an array of strings")
	}
	switch {
	case len(many) == 0:
		return nil, fmt.Errorf("input must not be empty")
	case len(many) > 2048:
		return nil, fmt.Errorf("at most 2048 inputs per request, got %d", len(many))
	}
	for i, s := range many {
		if s == "" {
			return nil, fmt.Errorf("input[%d] is an empty string", i)
		}
	}
	return many, nil
}

// record keeps the request and reports whether it is to fail, and how.
func (s *Server) record(req Request) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req)
	if len(s.failures) == 0 {
		return 0, false
	}
	status := s.failures[0]
	s.failures = s.failures[1:]
	return status, true
}

// embed is the vector of text, cut to dims numbers when asked, as
// text-embedding-3 models shorten theirs.
func (s *Server) embed(text string, dims int) []float32 {
	v := s.vector(text)
	if dims > 0 && dims < len(v) {
		v = v[:dims]
	}
	return v
}

// reject answers 400 as the real API would and fails the test: the client
// must never send such a request.
func (s *Server) reject(w http.ResponseWriter, msg string) {
	s.t.Errorf("vectorizertest: bad request: %s", msg)
	writeError(w, http.StatusBadRequest, msg, "invalid_request_error")
}

func writeError(w http.ResponseWriter, status int, msg, typ string) {
	w.Header().Set("Content-Type", "application/json")
	// A tiny Retry-After keeps the SDK's retries from slowing tests down.
	w.Header().Set("Retry-After-Ms", "1")
	w.WriteHeader(status)
	body := map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}}
	_ = json.NewEncoder(w).Encode(body)
}

// hashVector makes up a unit-free vector of DefaultDim numbers from a hash
// of text: equal texts get equal vectors.
func hashVector(text string) []float32 {
	sum := sha256.Sum256([]byte(text))
	v := make([]float32, DefaultDim)
	for i := range v {
		v[i] = float32(int16(binary.LittleEndian.Uint16(sum[2*i:]))) / 32768
	}
	return v
}
