package slackfake

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// Token is the bot token the fake accepts.
const Token = "xoxb-test-token"

// BotUserID is the bot's own user id (auth.test).
const BotUserID = "UBOT"

// Call is one recorded API request.
type Call struct {
	Method string
	At     time.Time
	// Args are the request's arguments: form values, or the top-level
	// fields of a JSON body (non-strings as raw JSON text).
	Args map[string]string
}

// Message is a message as Slack keeps it.
type Message struct {
	Channel  string
	TS       string
	ThreadTS string
	Text     string
	Blocks   []map[string]any
	Updates  int  // chat.update calls on it
	Streamed bool // made with chat.startStream
	Stopped  bool // chat.stopStream was called
}

// Server is the fake Slack API.
type Server struct {
	URL string // API base, ending in "/api/" (slack.OptionAPIURL)

	t   testing.TB
	srv *httptest.Server

	mu          sync.Mutex
	calls       []Call
	messages    []*Message
	views       map[string]map[string]any // user id → published view
	responses   []map[string]any          // bodies posted to response URLs
	users       map[string]user
	failures    map[string][]failure // method → next answers
	noStreaming bool
	nextTS      int64

	sock socket
}

type user struct {
	name   string
	bot    bool
	locale string // users.info's "locale" (include_locale), e.g. "ru-RU"
}

type failure struct {
	retryAfter int    // 429 with Retry-After when > 0
	err        string // else {"ok":false,"error":err}
}

// New starts a fake Slack API, closed by t.Cleanup.
func New(t testing.TB) *Server {
	s := &Server{t: t, users: map[string]user{BotUserID: {name: "shopbot", bot: true}},
		failures: map[string][]failure{}, views: map[string]map[string]any{}, nextTS: 1_700_000_000,
		sock: socket{outbox: make(chan []byte, 100)}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/{method}", s.api)
	mux.HandleFunc("POST /respond/{id}", s.respond)
	mux.HandleFunc("GET /link/", s.serveSocket)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/api/"
	t.Cleanup(s.srv.Close)
	return s
}

// AddUser makes a workspace member known to users.info.
func (s *Server) AddUser(id, name string, bot bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[id] = user{name: name, bot: bot}
}

// SetLocale sets a member's Slack locale ("ru-RU"), as users.info
// returns it with include_locale.
func (s *Server) SetLocale(id, locale string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[id]
	u.locale = locale
	s.users[id] = u
}

// RateLimit makes the next call of method answer 429 with Retry-After.
func (s *Server) RateLimit(method string, retryAfter int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures[method] = append(s.failures[method], failure{retryAfter: retryAfter})
}

// Fail makes the next call of method answer {"ok":false,"error":code}.
func (s *Server) Fail(method, code string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures[method] = append(s.failures[method], failure{err: code})
}

// DisableStreaming answers the chat.*Stream methods with unknown_method,
// like a workspace or API version without them.
func (s *Server) DisableStreaming() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noStreaming = true
}

// ResponseURL is a response_url for slash commands and interactions.
func (s *Server) ResponseURL(id string) string { return s.srv.URL + "/respond/" + id }

// Calls returns the recorded calls of the given methods (all when none).
func (s *Server) Calls(methods ...string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for _, c := range s.calls {
		if len(methods) == 0 || contains(methods, c.Method) {
			out = append(out, c)
		}
	}
	return out
}

// Messages returns copies of the messages in channel (every channel when
// empty), in posting order; with thread set, only that thread's replies.
func (s *Server) Messages(channel, thread string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, m := range s.messages {
		if (channel == "" || m.Channel == channel) && (thread == "" || m.ThreadTS == thread) {
			out = append(out, *m)
		}
	}
	return out
}

// View returns the Home view last published for user, or nil.
func (s *Server) View(userID string) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.views[userID]
}

// Responses returns the bodies posted to response URLs.
func (s *Server) Responses() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]any(nil), s.responses...)
}

// Wait polls until cond holds or the timeout passes; it reports whether
// cond held.
func (s *Server) Wait(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (s *Server) api(w http.ResponseWriter, r *http.Request) {
	method := r.PathValue("method")
	args, token, err := readArgs(r)
	if err != nil {
		writeJSON(w, http.StatusOK, map[string]any{"ok": false, "error": "invalid_form_data"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, Call{Method: method, At: time.Now(), Args: args})
	if f, ok := s.takeFailure(method); ok {
		if f.retryAfter > 0 {
			w.Header().Set("Retry-After", fmt.Sprint(f.retryAfter))
			writeJSON(w, http.StatusTooManyRequests, map[string]any{"ok": false, "error": "ratelimited"})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"ok": false, "error": f.err})
		return
	}
	want := Token
	if method == "apps.connections.open" {
		want = AppToken
	}
	if token != want {
		writeJSON(w, http.StatusOK, map[string]any{"ok": false, "error": "invalid_auth"})
		return
	}
	res, code := s.dispatch(method, args)
	if code != "" {
		writeJSON(w, http.StatusOK, map[string]any{"ok": false, "error": code})
		return
	}
	res["ok"] = true
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) takeFailure(method string) (failure, bool) {
	fs := s.failures[method]
	if len(fs) == 0 {
		return failure{}, false
	}
	s.failures[method] = fs[1:]
	return fs[0], true
}

// readArgs decodes a form or JSON body; the token comes from the
// Authorization header or the token argument.
func readArgs(r *http.Request) (map[string]string, string, error) {
	args := map[string]string{}
	body, err := io.ReadAll(io.LimitReader(r.Body, 4<<20))
	if err != nil {
		return nil, "", err
	}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") && len(body) > 0 {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil {
			return nil, "", err
		}
		for k, v := range m {
			var str string
			if json.Unmarshal(v, &str) == nil {
				args[k] = str
			} else {
				args[k] = string(v)
			}
		}
	} else {
		vals, err := url.ParseQuery(string(body))
		if err != nil {
			return nil, "", err
		}
		for k := range vals {
			args[k] = vals.Get(k)
		}
	}
	token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	if token == "" {
		token = args["token"]
	}
	delete(args, "token")
	return args, token, nil
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) respond(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, "invalid_payload", http.StatusBadRequest)
		return
	}
	if blocks, ok := body["blocks"]; ok {
		raw, _ := json.Marshal(blocks)
		if _, code := checkBlocks(string(raw)); code != "" {
			http.Error(w, code, http.StatusBadRequest)
			return
		}
	}
	s.mu.Lock()
	s.responses = append(s.responses, body)
	s.mu.Unlock()
	w.Write([]byte("ok"))
}

// Content is everything a member can read in a message: its text and its
// blocks as JSON.
func (m Message) Content() string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(m.Blocks)
	return m.Text + " " + b.String()
}
