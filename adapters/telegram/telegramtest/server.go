package telegramtest

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
)

// Call is one Bot API request the server received.
type Call struct {
	Method string
	Params map[string]string // nested values (reply_markup, prices) as JSON
	Time   time.Time
	Status int // the HTTP status answered
	// MessageID is the id of the message sent or edited, if any.
	MessageID int
}

// Int returns an integer parameter, 0 if absent.
func (c Call) Int(name string) int64 {
	n, _ := strconv.ParseInt(c.Params[name], 10, 64)
	return n
}

// Buttons returns the inline keyboard's callback data by button label.
func (c Call) Buttons() map[string]string {
	var m struct {
		InlineKeyboard [][]models.InlineKeyboardButton `json:"inline_keyboard"`
	}
	_ = json.Unmarshal([]byte(c.Params["reply_markup"]), &m)
	out := map[string]string{}
	for _, row := range m.InlineKeyboard {
		for _, b := range row {
			out[b.Text] = b.CallbackData
		}
	}
	return out
}

// Text is the message text or caption.
func (c Call) Text() string { return c.Params["text"] + c.Params["caption"] }

// Failure is an error answer to inject.
type Failure struct {
	Code        int
	Description string
	RetryAfter  int // seconds, for 429
}

// Ready-made failures with Telegram's wording.
var (
	Blocked      = Failure{Code: 403, Description: "Forbidden: bot was blocked by the user"}
	ChatNotFound = Failure{Code: 400, Description: "Bad Request: chat not found"}
	NotFound     = Failure{Code: 404, Description: "Not Found"}
)

// TooMany is a 429 with retry_after.
func TooMany(retryAfter int) Failure {
	return Failure{Code: 429, Description: fmt.Sprintf("Too Many Requests: retry after %d", retryAfter), RetryAfter: retryAfter}
}

type injected struct {
	method string
	chatID string // "" for any chat
	f      Failure
	times  int // <0: forever
}

// Server is a fake Bot API.
type Server struct {
	*httptest.Server
	Token string
	Bot   models.User

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced on every call or push
	calls    []Call
	fails    []*injected
	updates  []models.Update
	nextID   int64
	offset   int64 // the highest offset a getUpdates has confirmed
	msgID    map[string]int
	messages map[string]message // chat/message id → what it shows, for edits and presses
	noDrafts bool
	links    int // invoice links made
	// poll ends the long poll under way when another begins; conflicts
	// counts the polls so ended (Conflicts).
	poll      chan struct{}
	conflicts int
}

// NewServer starts a fake Bot API for token; it is closed when the test ends.
func NewServer(t testing.TB, token string) *Server {
	s := &Server{
		Token: token, Bot: models.User{ID: 4242, IsBot: true, FirstName: "Shop", Username: "shop_test_bot"},
		changed: make(chan struct{}), nextID: 1000, msgID: map[string]int{}, messages: map[string]message{},
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Fail makes the next times calls of method (to chatID, or any chat when
// chatID is "") answer f; times < 0 means until the test ends.
func (s *Server) Fail(method, chatID string, f Failure, times int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fails = append(s.fails, &injected{method: method, chatID: chatID, f: f, times: times})
}

// NoDrafts makes sendMessageDraft answer 404, like a server without drafts.
func (s *Server) NoDrafts() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noDrafts = true
}

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

// Wait blocks until cond holds on the recorded calls, failing the test
// after timeout.
func (s *Server) Wait(t testing.TB, timeout time.Duration, what string, cond func(calls []Call) bool) []Call {
	t.Helper()
	deadline := time.After(timeout)
	for {
		s.mu.Lock()
		calls := append([]Call(nil), s.calls...)
		ch := s.changed
		s.mu.Unlock()
		if cond(calls) {
			return calls
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("telegramtest: timed out after %s waiting for %s; calls:\n%s", timeout, what, Dump(calls))
			return nil
		}
	}
}

// WaitCalls waits until method was called at least n times and returns those calls.
func (s *Server) WaitCalls(t testing.TB, method string, n int) []Call {
	t.Helper()
	s.Wait(t, 10*time.Second, fmt.Sprintf("%d × %s", n, method), func(cs []Call) bool { return len(filter(cs, method)) >= n })
	return s.Calls(method)
}

// Dump formats calls for a failure message.
func Dump(calls []Call) string {
	var b strings.Builder
	for _, c := range calls {
		if c.Method == "getUpdates" {
			continue
		}
		p, _ := json.Marshal(c.Params)
		fmt.Fprintf(&b, "  %s %s %d %s\n", c.Time.Format("15:04:05.000"), c.Method, c.Status, p)
	}
	return b.String()
}

func filter(cs []Call, method string) []Call {
	var out []Call
	for _, c := range cs {
		if c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/bot"+s.Token+"/")
	if !ok || r.Method != http.MethodPost && r.Method != http.MethodGet {
		writeFail(w, Failure{Code: 401, Description: "Unauthorized"})
		return
	}
	params, err := readParams(r)
	if err != nil {
		writeFail(w, Failure{Code: 400, Description: "Bad Request: " + err.Error()})
		return
	}
	if rest == "getUpdates" {
		s.getUpdates(w, r, params)
		return
	}
	status, result, fail := s.answer(rest, params)
	c := Call{Method: rest, Params: params, Time: time.Now(), Status: status}
	if m, ok := result.(*models.Message); ok {
		c.MessageID = m.ID
	}
	s.record(c)
	if fail != nil {
		writeFail(w, *fail)
		return
	}
	writeOK(w, result)
}

func (s *Server) record(c Call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, c)
	s.notifyLocked()
}

func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// readParams accepts multipart and URL-encoded forms and JSON objects, as
// the Bot API does; nested JSON values are kept as their JSON text.
func readParams(r *http.Request) (map[string]string, error) {
	out := map[string]string{}
	for k, v := range r.URL.Query() {
		out[k] = v[0]
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "multipart/form-data":
		if err := r.ParseMultipartForm(10 << 20); err != nil {
			if strings.HasSuffix(err.Error(), "EOF") {
				return out, nil // a method without parameters: an empty form
			}
			return nil, err
		}
		for k, v := range r.MultipartForm.Value {
			out[k] = v[0]
		}
	case "application/x-www-form-urlencoded":
		if err := r.ParseForm(); err != nil {
			return nil, err
		}
		for k, v := range r.PostForm {
			out[k] = v[0]
		}
	case "application/json":
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil {
			return nil, fmt.Errorf("bad JSON: %v", err)
		}
		for k, v := range m {
			var str string
			if json.Unmarshal(v, &str) == nil {
				out[k] = str
			} else {
				out[k] = string(v)
			}
		}
	}
	return out, nil
}

func writeOK(w http.ResponseWriter, result any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": result})
}

func writeFail(w http.ResponseWriter, f Failure) {
	body := map[string]any{"ok": false, "error_code": f.Code, "description": f.Description}
	if f.RetryAfter > 0 {
		body["parameters"] = map[string]int{"retry_after": f.RetryAfter}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(f.Code)
	_ = json.NewEncoder(w).Encode(body)
}
