package web

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"shopbot/adapters"
	"shopbot/engine"
	"shopbot/engine/view"
)

// Handler is the engine as the web adapter uses it.
type Handler interface {
	Handle(ctx context.Context, t engine.Turn, sink engine.Sink) error
}

// Chat serves the web chat API.
type Chat struct {
	engine Handler
	log    *slog.Logger
	mail   mailbox // notices waiting for their session (notice.go)
	keys   Keys    // clients' Idempotency-Keys, when remembered (idempotency.go)
	// live are this process's open event streams (events.go), woken by
	// Notify; pollEvery how often they look for other replicas' notices.
	live      wakers
	pollEvery time.Duration
	// events are the sessions' logs (eventlog.go): history, and the live
	// streams' cursor; mem is the log of a Chat given none.
	events  EventLog
	mem     *MemoryEvents
	memOnce sync.Once
}

// New returns the web chat handler for POST /api/chat.
func New(h Handler, log *slog.Logger) *Chat { return &Chat{engine: h, log: log} }

// maxBody bounds a request body.
const maxBody = 8 << 10

// retryAfter is the Retry-After of a 503 while the database is down.
const retryAfter = "5"

// retryAfterOf is a 429's Retry-After: the seconds left in the shopper's
// rate-limit window, rounded up, at least 1.
func retryAfterOf(err error) string {
	d := engine.RetryAfter(err)
	return strconv.Itoa(max(int((d+time.Second-1)/time.Second), 1))
}

var sessionRE = regexp.MustCompile(`^[A-Za-z0-9_-]{16,64}$`)

type request struct {
	Session string `json:"session"`
	Message string `json:"message"`
	Action  string `json:"action"`
	Locale  string `json:"locale"`
	Name    string `json:"name"`
}

// response is the non-streaming answer.
type response struct {
	Reply   string          `json:"reply"`
	Cards   []view.Card     `json:"cards"`
	Buttons []view.Button   `json:"buttons"`
	Cart    *view.CartView  `json:"cart"`
	Order   *view.OrderView `json:"order"`
	Picker  *pickerEvent    `json:"picker,omitempty"`  // which variant to add (picker.go)
	Notices []noticeEvent   `json:"notices,omitempty"` // came since the session's last request
}

// ServeHTTP handles one chat message.
func (c *Chat) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	turn, err := decode(w, r)
	if err != nil {
		code := http.StatusBadRequest
		if errors.Is(err, adapters.ErrBodyTooLarge) {
			code = http.StatusRequestEntityTooLarge
		}
		writeError(w, code, err.Error())
		return
	}
	if c.replayed(w, r, turn) {
		return
	}
	if strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		c.stream(w, r, turn)
		return
	}
	var resp response
	rec := newRecorder(turn)
	err = c.handle(r, turn, engine.SinkFunc(func(_ context.Context, ev engine.Event) error {
		collect(&resp, ev)
		rec.see(ev)
		return nil
	}))
	if err == nil {
		c.record(r.Context(), turn.ChatID, rec)
	}
	if c.failed(w, r, err) {
		return
	}
	resp.Notices = c.takeNotices(r.Context(), turn.ChatID)
	writeJSON(w, http.StatusOK, resp)
}

// failed answers the errors the engine reports to adapters; it returns
// false when the turn succeeded.
func (c *Chat) failed(w http.ResponseWriter, r *http.Request, err error) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, engine.ErrRateLimited):
		w.Header().Set("Retry-After", retryAfterOf(err))
		writeError(w, http.StatusTooManyRequests, engine.PoliteMessage(err, ""))
	case errors.Is(err, engine.ErrBadTurn):
		writeError(w, http.StatusBadRequest, err.Error())
	case errors.Is(err, engine.ErrReplayed):
		writeError(w, http.StatusConflict, "this message was handled already: its Idempotency-Key was used before")
	case errors.Is(err, engine.ErrUnavailable):
		c.log.WarnContext(r.Context(), "web chat turn failed: database unavailable", "err", err)
		w.Header().Set("Retry-After", retryAfter)
		writeError(w, http.StatusServiceUnavailable, "the shop is briefly unavailable; please try again in a few seconds")
	default:
		c.log.ErrorContext(r.Context(), "web chat turn failed", "err", err)
		writeError(w, http.StatusInternalServerError, "something went wrong; please try again")
	}
	return true
}

func decode(w http.ResponseWriter, r *http.Request) (engine.Turn, error) {
	key, err := idempotencyKey(r)
	if err != nil {
		return engine.Turn{}, err
	}
	body, err := adapters.ReadBody(w, r, maxBody)
	if err != nil {
		if errors.Is(err, adapters.ErrBodyTooLarge) {
			return engine.Turn{}, fmt.Errorf("%w: the limit is 8 KB", adapters.ErrBodyTooLarge)
		}
		return engine.Turn{}, errors.New("request body unreadable")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var req request
	if err := dec.Decode(&req); err != nil {
		return engine.Turn{}, errors.New("body must be a JSON object with session and message (or action)")
	}
	if _, err := dec.Token(); err != io.EOF {
		return engine.Turn{}, errors.New("body must hold exactly one JSON object")
	}
	if !sessionRE.MatchString(req.Session) {
		return engine.Turn{}, errors.New("session must be 16-64 letters, digits, - or _ (e.g. a UUID)")
	}
	t := engine.Turn{
		Channel: "web", ChatID: req.Session, UserID: req.Session, UserName: req.Name,
		Locale: req.Locale, Text: strings.TrimSpace(req.Message), DedupKey: key,
	}
	if req.Action != "" {
		a, err := view.ParseAction(req.Action)
		if err != nil {
			return engine.Turn{}, err
		}
		t.Action, t.Text = &a, ""
	}
	if t.Text == "" && t.Action == nil {
		return engine.Turn{}, errors.New("message is empty")
	}
	return t, nil
}

// maxKey bounds an Idempotency-Key.
const maxKey = 64

// idempotencyKey is the client's Idempotency-Key (a retried request then
// cannot order twice) or, without one, a fresh random id. A key that is
// too long or not printable ASCII is refused rather than ignored: ignoring
// it would silently turn off the protection the client asked for.
func idempotencyKey(r *http.Request) (string, error) {
	k := r.Header.Get("Idempotency-Key")
	if k == "" {
		b := make([]byte, 12)
		_, _ = rand.Read(b)
		return hex.EncodeToString(b), nil
	}
	if len(k) > maxKey || strings.IndexFunc(k, func(c rune) bool { return c < 0x20 || c > 0x7e }) >= 0 {
		return "", fmt.Errorf("Idempotency-Key must be at most %d characters of printable ASCII", maxKey)
	}
	return k, nil
}

func collect(resp *response, ev engine.Event) {
	switch ev.Kind {
	case engine.EventCards:
		resp.Cards = append(resp.Cards, ev.Cards...)
	case engine.EventButtons:
		resp.Buttons = append(resp.Buttons, ev.Buttons...)
	case engine.EventCart:
		resp.Cart = ev.Cart
	case engine.EventOrder:
		resp.Order = ev.Order
	case engine.EventPicker:
		if ev.Picker != nil {
			resp.Picker = pickerOf(ev.Picker)
		}
	case engine.EventDone, engine.EventError:
		resp.Reply = ev.Text
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}
