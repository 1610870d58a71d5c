package ucp

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"shopbot/engine"
	"shopbot/engine/agentdoor"
)

// Engine is what the binding needs of the engine: the agent door's
// tool calls.
type Engine interface {
	CallTool(ctx context.Context, t engine.Turn, name, args string) (agentdoor.Reply, error)
}

// Options configure the binding.
type Options struct {
	// BaseURL is the shop's public URL ("https://shop.example.com");
	// empty: taken from the request's host (and X-Forwarded-Proto).
	BaseURL string
	// MCPPath is where the MCP door answers ("/mcp"), listed as a
	// service of the profile; empty when the door is off.
	MCPPath string
	// TermsURL is the shop's terms page, linked from every session.
	TermsURL string
	Logger   *slog.Logger
	// Store keeps the sessions and the Idempotency-Key replies where every
	// replica sees them (the database; wired in bot/); nil keeps them in
	// this process.
	Store Store
	// Now is the clock (tests); nil is time.Now.
	Now func() time.Time
	// Token, when set (MCP_TOKEN: a private deployment), must come as
	// "Authorization: Bearer <token>" on every checkout-session request;
	// the profile stays public.
	Token string
}

// maxBody bounds a request body.
const maxBody = 64 << 10

type handler struct {
	eng   Engine
	opts  Options
	store Store
	log   *slog.Logger
}

func (h *handler) now() time.Time {
	if h.opts.Now != nil {
		return h.opts.Now()
	}
	return time.Now()
}

// Handler serves the profile and the checkout-session binding; mount it
// at /.well-known/ucp and /ucp/v1/.
func Handler(eng Engine, opts Options) http.Handler {
	mux := http.NewServeMux()
	Routes(mux, eng, opts)
	return mux
}

// Routes mounts the profile and the checkout-session binding on mux.
func Routes(mux *http.ServeMux, eng Engine, opts Options) {
	h := &handler{eng: eng, opts: opts, store: opts.Store, log: opts.Logger}
	if h.store == nil {
		h.store = newMemoryStore()
	}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	mux.HandleFunc("GET /.well-known/ucp", h.profile)
	mux.HandleFunc("POST /ucp/v1/checkout-sessions", h.authorized(h.idempotent(h.create)))
	mux.HandleFunc("GET /ucp/v1/checkout-sessions/{id}", h.authorized(h.get))
	mux.HandleFunc("PUT /ucp/v1/checkout-sessions/{id}", h.authorized(h.idempotent(h.update)))
	mux.HandleFunc("POST /ucp/v1/checkout-sessions/{id}/complete", h.authorized(h.idempotent(h.complete)))
	mux.HandleFunc("POST /ucp/v1/checkout-sessions/{id}/cancel", h.authorized(h.idempotent(h.cancel)))
}

// authorized answers 401 in the spec's error shape, before anything else
// happens, unless the request carries the bearer token (when one is set).
func (h *handler) authorized(next http.HandlerFunc) http.HandlerFunc {
	if h.opts.Token == "" {
		return next
	}
	want := []byte("Bearer " + h.opts.Token)
	return func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="ucp"`)
			writeJSON(w, http.StatusUnauthorized, errorBody("unauthorized", "a valid bearer token is required"))
			return
		}
		next(w, r)
	}
}

// base is the shop's public URL.
func (h *handler) base(r *http.Request) string {
	if h.opts.BaseURL != "" {
		return strings.TrimRight(h.opts.BaseURL, "/")
	}
	scheme := "http"
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// message is a UCP message (types/message_error.json and kin).
type message struct {
	Type     string `json:"type"`
	Code     string `json:"code"`
	Path     string `json:"path,omitempty"`
	Content  string `json:"content"`
	Severity string `json:"severity,omitempty"`
}

// errorBody is the spec's error response (types/error_response.json).
func errorBody(code, content string) map[string]any {
	return map[string]any{
		"ucp":      map[string]any{"version": Version, "status": "error"},
		"messages": []message{{Type: "error", Code: code, Content: content, Severity: "unrecoverable"}},
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v) // the client went away: nothing to do
}

// fail answers a refused request in the spec's error shape.
func (h *handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	var rl *engine.RateLimitedError
	var be *badRequest
	switch {
	case errors.As(err, &be):
		writeJSON(w, http.StatusBadRequest, errorBody("invalid_request", be.msg))
	case errors.Is(err, errNotFound):
		writeJSON(w, http.StatusNotFound, errorBody("not_found", "no such checkout session"))
	case errors.Is(err, errBusy):
		w.Header().Set("Retry-After", "1")
		writeJSON(w, http.StatusConflict, errorBody("busy", "another request is changing this checkout session; try again"))
	case errors.As(err, &rl):
		w.Header().Set("Retry-After", retryAfter(rl))
		writeJSON(w, http.StatusTooManyRequests, errorBody("rate_limited", engine.PoliteMessage(err, "en")))
	case errors.Is(err, engine.ErrUnavailable):
		w.Header().Set("Retry-After", "30")
		writeJSON(w, http.StatusServiceUnavailable, errorBody("unavailable", "the shop is unavailable right now; try again in a minute"))
	default:
		h.log.ErrorContext(r.Context(), "ucp: request failed", "err", err)
		writeJSON(w, http.StatusInternalServerError, errorBody("internal_error", "the shop could not serve this request"))
	}
}

func retryAfter(rl *engine.RateLimitedError) string {
	return strconv.Itoa(int(math.Ceil(rl.RetryAfter.Seconds())))
}

// badRequest is a malformed request: 400.
type badRequest struct{ msg string }

func (e *badRequest) Error() string { return "ucp: bad request: " + e.msg }

// decode reads a JSON body into v, bounded and strict about its shape.
func decode(r *http.Request, v any) error {
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return &badRequest{"the body could not be read"}
	}
	if len(b) > maxBody {
		return &badRequest{"the body is over 64 KiB"}
	}
	if err := json.Unmarshal(b, v); err != nil {
		return &badRequest{"the body is not the JSON expected: " + err.Error()}
	}
	return nil
}
