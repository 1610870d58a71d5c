package weaviatetest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"shopbot/catalog/search/weaviate/weaviatetest"
)

func TestMain(m *testing.M) { weaviatetest.Main(m) }

// TestStopStart checks that the server answers, refuses connections once
// stopped and answers again on the same data after Start.
func TestStopStart(t *testing.T) {
	s := weaviatetest.Shared(t)
	ready := func() bool {
		c := &http.Client{Timeout: 2 * time.Second}
		resp, err := c.Get(s.URL + "/v1/.well-known/ready")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}
	if !ready() {
		t.Fatalf("not ready after Shared:\n%s", s.Output())
	}
	s.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.WaitDown(ctx); err != nil {
		t.Fatal(err)
	}
	if ready() {
		t.Fatal("still answering after Stop")
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if !ready() {
		t.Fatal("not ready after Start")
	}
}
