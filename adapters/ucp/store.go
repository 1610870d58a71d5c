package ucp

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"

	"shopbot/engine"
	"shopbot/engine/view"
)

var errNotFound = errors.New("ucp: checkout session not found")

// session is a checkout session's own state; its cart and order live
// in the engine's conversation "ucp-<id>".
type session struct {
	mu      sync.Mutex // one operation at a time
	id      string
	status  string
	buyer   *buyer
	address *postalAddress
	lines   []lineItem // as last asked for (ids and quantities)
	orderNo string
	order   *view.OrderView // once completed
	created time.Time
	writes  int // a counter in the engine's idempotency keys
}

// maxSessions bounds the sessions kept; the oldest go first.
const maxSessions = 100_000

// store keeps the sessions and the replies to Idempotency-Keys.
type store struct {
	mu       sync.Mutex
	sessions map[string]*session
	order    []string
	replies  map[string]*reply
	rorder   []string
}

func newStore() *store {
	return &store{sessions: map[string]*session{}, replies: map[string]*reply{}}
}

func (s *store) add(now time.Time) *session {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24)
	ss := &session{id: "chk_" + hex.EncodeToString(b[:]), status: "incomplete", created: now}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sessions[ss.id] = ss
	s.order = append(s.order, ss.id)
	if len(s.order) > maxSessions {
		delete(s.sessions, s.order[0])
		s.order = s.order[1:]
	}
	return ss
}

func (s *store) get(id string) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, ok := s.sessions[id]
	if !ok {
		return nil, fmt.Errorf("%w: %q", errNotFound, id)
	}
	return ss, nil
}

// turn is the engine turn of the session's operations.
func (ss *session) turn() engine.Turn {
	id := "ucp-" + ss.id
	return engine.Turn{Channel: engine.AgentChannel, ChatID: id, UserID: id, UserName: "UCP agent"}
}

// reply is a response kept for its Idempotency-Key.
type reply struct {
	digest string
	status int
	header http.Header
	body   []byte
	done   chan struct{} // closed once the first request has answered
}

// maxReplies bounds the replies kept (the spec asks for 24 hours; a
// process keeps the last maxReplies).
const maxReplies = 100_000

// idempotent runs next once per Idempotency-Key: the same key with the
// same request gets the first response again; with another request,
// 409 Conflict. Without the header the request just runs.
func (h *handler) idempotent(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("Idempotency-Key")
		if key == "" {
			next(w, r)
			return
		}
		if len(key) > 255 {
			writeJSON(w, http.StatusBadRequest, errorBody("invalid_request", "Idempotency-Key is over 255 characters"))
			return
		}
		body, err := readBody(r)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		sum := sha256.Sum256(append([]byte(r.Method+" "+r.URL.Path+"\n"), body...))
		digest := hex.EncodeToString(sum[:])
		rp, first := h.store.claim(key, digest)
		if !first {
			<-rp.done
			if rp.digest != digest {
				writeJSON(w, http.StatusConflict, errorBody("idempotency_conflict", "this Idempotency-Key was used with a different request"))
				return
			}
			for k, v := range rp.header {
				w.Header()[k] = v
			}
			w.Header().Set("Idempotent-Replayed", "true")
			w.WriteHeader(rp.status)
			_, _ = w.Write(rp.body)
			return
		}
		rec := httptest.NewRecorder()
		next(rec, r)
		rp.status, rp.header, rp.body = rec.Code, rec.Header().Clone(), rec.Body.Bytes()
		close(rp.done)
		if rp.status >= 500 || rp.status == http.StatusTooManyRequests {
			h.store.forget(key) // not a result: the same key may try again
		}
		for k, v := range rp.header {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(rp.body)))
		w.WriteHeader(rp.status)
		_, _ = w.Write(rp.body)
	}
}

// readBody reads and restores r's body, bounded.
func readBody(r *http.Request) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(http.MaxBytesReader(nil, r.Body, maxBody+1)); err != nil || buf.Len() > maxBody {
		return nil, &badRequest{"the body is over 64 KiB"}
	}
	r.Body = http.NoBody
	if buf.Len() > 0 {
		r.Body = readCloser{bytes.NewReader(buf.Bytes())}
	}
	return buf.Bytes(), nil
}

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

func (s *store) claim(key, digest string) (*reply, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rp, ok := s.replies[key]; ok {
		return rp, false
	}
	rp := &reply{digest: digest, done: make(chan struct{})}
	s.replies[key] = rp
	s.rorder = append(s.rorder, key)
	if len(s.rorder) > maxReplies {
		delete(s.replies, s.rorder[0])
		s.rorder = s.rorder[1:]
	}
	return rp, true
}

func (s *store) forget(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.replies, key)
}
