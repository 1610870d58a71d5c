package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// sharedStore is a NoticeStore two Chats share, as replicas share the
// database; fail makes it unavailable.
type sharedStore struct {
	mu      sync.Mutex
	pending map[string][]json.RawMessage
	fail    bool
}

var errStoreDown = errors.New("store down")

func (s *sharedStore) Put(_ context.Context, session string, payload []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		return errStoreDown
	}
	if s.pending == nil {
		s.pending = map[string][]json.RawMessage{}
	}
	s.pending[session] = append(s.pending[session], payload)
	return nil
}

func (s *sharedStore) Take(_ context.Context, session string) ([]json.RawMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		return nil, errStoreDown
	}
	q := s.pending[session]
	delete(s.pending, session)
	return q, nil
}

// TestNoticesThroughStore: with a NoticeStore, a notice one Chat (replica
// B) made reaches the session through another (replica A), once; a store
// that is down answers the poll 503 and keeps nothing from Notify.
func TestNoticesThroughStore(t *testing.T) {
	store := &sharedStore{}
	a, b := newChat(&fakeEngine{}), newChat(&fakeEngine{})
	a.KeepNotices(store)
	b.KeepNotices(store)
	if err := b.Notify(context.Background(), backInStock(session)); err != nil {
		t.Fatal(err)
	}
	poll := func() *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		a.Notices(rec, httptest.NewRequest(http.MethodGet, "/api/chat/notices?session="+session, nil))
		return rec
	}
	var resp struct{ Notices []noticeJSON }
	rec := poll()
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil || len(resp.Notices) != 1 || resp.Notices[0].Card == nil || resp.Notices[0].Card.SKU != "LAMP-1" {
		t.Fatalf("poll on a: %d %s", rec.Code, rec.Body)
	}
	if rec := poll(); rec.Body.String() != "{\"notices\":[]}\n" {
		t.Errorf("second poll: %s", rec.Body)
	}
	store.fail = true
	b.KeepEvents(failingLog{}) // the database down: both refuse
	if err := b.Notify(context.Background(), backInStock(session)); !errors.Is(err, errStoreDown) {
		t.Errorf("notify with the store down: %v", err)
	}
	if rec := poll(); rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
		t.Errorf("poll with the store down: %d %v", rec.Code, rec.Header())
	}
}
