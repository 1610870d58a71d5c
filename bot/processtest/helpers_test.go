package processtest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// tgToken is the fake Bot API's token, shaped like a real one.
const tgToken = "4242:AAserve-test-token_0123456789abcdefgh"

var (
	addrRE      = regexp.MustCompile(`http://(127\.0\.0\.1:\d+)`)
	generatedRE = regexp.MustCompile(`user admin, password (\S+) \(generated`)
)

var (
	buildOnce sync.Once
	binDir    string
	binPath   string
	buildErr  error
)

// TestMain removes the shared binary after the run.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// shopbotBinary builds the shopbot command once for all the tests here.
func shopbotBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "shopbot-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binDir, binPath = dir, filepath.Join(dir, "shopbot")
		out, err := exec.Command("go", "build", "-o", binPath, "shopbot/bot").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("build shopbot: %v", buildErr)
	}
	return binPath
}

// syncBuffer is a bytes.Buffer safe for the output copier and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func openTestDB(t *testing.T, url string) *bun.DB {
	t.Helper()
	db, _, err := catalog.OpenDB(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// countOutputs counts the startup outputs that contain want.
func countOutputs(outs []string, want string) int {
	n := 0
	for _, out := range outs {
		if strings.Contains(out, want) {
			n++
		}
	}
	return n
}
