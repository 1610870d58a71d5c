package weaviatetest_test

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"runtime"
	"strings"
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

// recorder is a testing.TB that records how Shared ended a test.
type recorder struct {
	testing.TB
	failed, skipped string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// TestMissingBinary: without the binary a test is skipped loudly, or
// fails when the server is required.
func TestMissingBinary(t *testing.T) {
	t.Setenv("SHOPBOT_WEAVIATE_BIN", filepath.Join(t.TempDir(), "no-such-weaviate-server"))
	for _, required := range []bool{false, true} {
		t.Setenv("CI", "")
		t.Setenv("SHOPBOT_REQUIRE_WEAVIATE", "")
		if required {
			t.Setenv("SHOPBOT_REQUIRE_WEAVIATE", "1")
		}
		r := &recorder{TB: t}
		done := make(chan struct{})
		go func() { defer close(done); weaviatetest.Shared(r) }()
		<-done
		switch {
		case required && (r.failed == "" || !strings.Contains(r.failed, "no-such-weaviate-server")):
			t.Errorf("required: failed %q, skipped %q", r.failed, r.skipped)
		case !required && (r.skipped == "" || !strings.Contains(r.skipped, "SKIPPING WEAVIATE")):
			t.Errorf("not required: failed %q, skipped %q", r.failed, r.skipped)
		}
	}
}
