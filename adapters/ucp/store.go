package ucp

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"shopbot/engine"
	"shopbot/engine/agentdoor"
	"shopbot/engine/view"
)

var (
	errNotFound = errors.New("ucp: checkout session not found")
	// errBusy is a session another request held past maxWait.
	errBusy = errors.New("ucp: checkout session busy")
)

// Store keeps the binding's records — checkout sessions, their leases
// and the replies to Idempotency-Keys — where every replica sees them
// (catalog.UCPRecords, wired in bot/). A record is a value under (kind,
// key) kept until it expires; an expired record is as good as absent.
type Store interface {
	// Claim stores value under (kind, key) until expires when no record
	// is there or the one there expired before now, and reports whether
	// it did: of racing claims, one wins.
	Claim(ctx context.Context, kind, key string, value []byte, expires, now time.Time) (bool, error)
	// Put stores value under (kind, key) until expires, whatever was there.
	Put(ctx context.Context, kind, key string, value []byte, expires time.Time) error
	// Get is the value under (kind, key); false when there is none or it
	// expired before now.
	Get(ctx context.Context, kind, key string, now time.Time) ([]byte, bool, error)
	// Release deletes the record under (kind, key) if it still holds value.
	Release(ctx context.Context, kind, key string, value []byte) error
}

// The kinds of records.
const (
	kindSession = "session"
	kindLease   = "lease"
	kindReply   = "reply"
)

const (
	// keepSession is how long a session is kept after its last change.
	keepSession = 7 * 24 * time.Hour
	// keepReply is how long a reply answers its Idempotency-Key (the
	// spec asks for at least 24 hours).
	keepReply = 24 * time.Hour
	// lease bounds how long one operation holds a session or a pending
	// Idempotency-Key: a replica that dies mid-operation frees it then.
	lease = 2 * time.Minute
	// maxWait bounds how long a request waits for a session or a reply
	// another request holds; pollEvery is how often it looks.
	maxWait   = 30 * time.Second
	pollEvery = 25 * time.Millisecond
)

// session is a checkout session's own state, kept as JSON in the Store;
// its cart and order live in the engine's conversation "ucp-<id>".
type session struct {
	ID      string          `json:"id"`
	Status  string          `json:"status"`
	Buyer   *buyer          `json:"buyer,omitempty"`
	Address *postalAddress  `json:"address,omitempty"`
	Lines   []lineItem      `json:"lines,omitempty"` // as last asked for (ids and quantities)
	OrderNo string          `json:"order_no,omitempty"`
	Order   *view.OrderView `json:"order,omitempty"` // once completed
	Created time.Time       `json:"created"`
	Writes  int             `json:"writes"` // a counter in the engine's idempotency keys
	// Fulfillment: the delivery options for the address, the chosen one
	// and the total with it (fulfillment.go); PayURL, where the buyer
	// pays a completed session's order (continue_url), when configured.
	Options  []option `json:"options,omitempty"`
	Delivery string   `json:"delivery,omitempty"`
	Total    *int64   `json:"total,omitempty"`
	PayURL   string   `json:"pay_url,omitempty"`
}

// turn is the engine turn of the session's operations.
func (ss *session) turn() engine.Turn {
	id := "ucp-" + ss.ID
	return engine.Turn{Channel: agentdoor.Channel, ChatID: id, UserID: id, UserName: "UCP agent"}
}

func token() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24)
	return hex.EncodeToString(b[:])
}

// newSession stores a new session.
func (h *handler) newSession(ctx context.Context) (*session, error) {
	now := h.now()
	ss := &session{ID: "chk_" + token(), Status: "incomplete", Created: now}
	b, err := json.Marshal(ss)
	if err != nil {
		return nil, fmt.Errorf("ucp: encode session: %w", err)
	}
	ok, err := h.store.Claim(ctx, kindSession, ss.ID, b, now.Add(keepSession), now)
	if err != nil {
		return nil, unavailable(fmt.Errorf("ucp: store session: %w", err))
	}
	if !ok {
		return nil, fmt.Errorf("ucp: session id %s taken", ss.ID)
	}
	return ss, nil
}

// load is session id as stored.
func (h *handler) load(ctx context.Context, id string) (*session, error) {
	b, ok, err := h.store.Get(ctx, kindSession, id, h.now())
	if err != nil {
		return nil, unavailable(fmt.Errorf("ucp: load session: %w", err))
	}
	if !ok {
		return nil, fmt.Errorf("%w: %q", errNotFound, id)
	}
	var ss session
	if err := json.Unmarshal(b, &ss); err != nil {
		return nil, fmt.Errorf("ucp: decode session %s: %w", id, err)
	}
	return &ss, nil
}

// save stores ss as it is now.
func (h *handler) save(ctx context.Context, ss *session) error {
	b, err := json.Marshal(ss)
	if err != nil {
		return fmt.Errorf("ucp: encode session: %w", err)
	}
	if err := h.store.Put(ctx, kindSession, ss.ID, b, h.now().Add(keepSession)); err != nil {
		return unavailable(fmt.Errorf("ucp: save session: %w", err))
	}
	return nil
}

// lock takes session id's lease, waiting while another request (on this
// replica or another) holds it; unlock gives it back.
func (h *handler) lock(ctx context.Context, id string) (unlock func(), err error) {
	owner := []byte(token())
	deadline := h.now().Add(maxWait)
	var tick *time.Ticker
	for {
		now := h.now()
		ok, err := h.store.Claim(ctx, kindLease, id, owner, now.Add(lease), now)
		if err != nil {
			return nil, unavailable(fmt.Errorf("ucp: lock session: %w", err))
		}
		if ok {
			if tick != nil {
				tick.Stop()
			}
			return func() {
				// A lease not given back ends by itself.
				if err := h.store.Release(context.WithoutCancel(ctx), kindLease, id, owner); err != nil {
					h.log.WarnContext(ctx, "ucp: unlock session", "session", id, "err", err)
				}
			}, nil
		}
		if err := h.wait(ctx, &tick, deadline); err != nil {
			return nil, err
		}
	}
}

// wait waits one poll for a record another request holds.
func (h *handler) wait(ctx context.Context, tick **time.Ticker, deadline time.Time) error {
	if h.now().After(deadline) {
		if *tick != nil {
			(*tick).Stop()
		}
		return errBusy
	}
	if *tick == nil {
		*tick = time.NewTicker(pollEvery)
	}
	select {
	case <-ctx.Done():
		(*tick).Stop()
		return fmt.Errorf("ucp: wait: %w", ctx.Err())
	case <-(*tick).C:
		return nil
	}
}

// reply is a response kept for its Idempotency-Key; Pending while the
// first request is still answering.
type reply struct {
	Digest  string      `json:"digest"`
	Pending string      `json:"pending,omitempty"` // the answering request's token
	Status  int         `json:"status,omitempty"`
	Header  http.Header `json:"header,omitempty"`
	Body    []byte      `json:"body,omitempty"`
}

// claimReply makes this request the one answering key, or returns the
// reply another request gave (waiting while it is pending); a different
// request under the key returns at once.
func (h *handler) claimReply(ctx context.Context, key, digest string) (mine []byte, prior *reply, err error) {
	pending, err := json.Marshal(reply{Digest: digest, Pending: token()})
	if err != nil {
		return nil, nil, fmt.Errorf("ucp: encode reply: %w", err)
	}
	deadline := h.now().Add(maxWait)
	var tick *time.Ticker
	defer func() {
		if tick != nil {
			tick.Stop()
		}
	}()
	for {
		now := h.now()
		ok, err := h.store.Claim(ctx, kindReply, key, pending, now.Add(lease), now)
		if err != nil {
			return nil, nil, unavailable(fmt.Errorf("ucp: claim Idempotency-Key: %w", err))
		}
		if ok {
			return pending, nil, nil
		}
		b, found, err := h.store.Get(ctx, kindReply, key, now)
		if err != nil {
			return nil, nil, unavailable(fmt.Errorf("ucp: look up Idempotency-Key: %w", err))
		}
		if found {
			var rp reply
			if err := json.Unmarshal(b, &rp); err != nil {
				return nil, nil, fmt.Errorf("ucp: decode reply: %w", err)
			}
			if rp.Digest != digest || rp.Pending == "" {
				return nil, &rp, nil
			}
		}
		if err := h.wait(ctx, &tick, deadline); err != nil {
			return nil, nil, err
		}
	}
}

// finishReply keeps the response to key; a failure (5xx, 429) is not a
// result, and frees the key to try again.
func (h *handler) finishReply(ctx context.Context, key string, pending []byte, rp *reply) {
	ctx = context.WithoutCancel(ctx)
	var err error
	if rp.Status >= 500 || rp.Status == http.StatusTooManyRequests {
		err = h.store.Release(ctx, kindReply, key, pending)
	} else {
		var b []byte
		if b, err = json.Marshal(rp); err == nil {
			err = h.store.Put(ctx, kindReply, key, b, h.now().Add(keepReply))
		}
	}
	if err != nil {
		h.log.WarnContext(ctx, "ucp: keep Idempotency-Key reply", "err", err)
	}
}

// unavailable marks a store error as the shop being unavailable (503).
func unavailable(err error) error {
	return fmt.Errorf("%w: %w", engine.ErrUnavailable, err)
}

// memoryStore is the Store of a single process, used when Options has
// none (tests, and SQLite deployments that never run replicas).
type memoryStore struct {
	mu   sync.Mutex
	recs map[[2]string]memRecord
}

type memRecord struct {
	value   []byte
	expires time.Time
}

// maxMemory bounds the records a memoryStore keeps; expired ones go
// first when it is full.
const maxMemory = 300_000

func newMemoryStore() *memoryStore { return &memoryStore{recs: map[[2]string]memRecord{}} }

func (m *memoryStore) Claim(_ context.Context, kind, key string, value []byte, expires, now time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := m.recs[[2]string{kind, key}]; ok && !r.expires.Before(now) {
		return false, nil
	}
	m.set(kind, key, value, expires, now)
	return true, nil
}

func (m *memoryStore) Put(_ context.Context, kind, key string, value []byte, expires time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.set(kind, key, value, expires, time.Now())
	return nil
}

func (m *memoryStore) set(kind, key string, value []byte, expires, now time.Time) {
	if len(m.recs) >= maxMemory {
		for k, r := range m.recs {
			if r.expires.Before(now) {
				delete(m.recs, k)
			}
		}
	}
	m.recs[[2]string{kind, key}] = memRecord{value: bytes.Clone(value), expires: expires}
}

func (m *memoryStore) Get(_ context.Context, kind, key string, now time.Time) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.recs[[2]string{kind, key}]
	if !ok || r.expires.Before(now) {
		return nil, false, nil
	}
	return bytes.Clone(r.value), true, nil
}

func (m *memoryStore) Release(_ context.Context, kind, key string, value []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := m.recs[[2]string{kind, key}]; ok && bytes.Equal(r.value, value) {
		delete(m.recs, [2]string{kind, key})
	}
	return nil
}
