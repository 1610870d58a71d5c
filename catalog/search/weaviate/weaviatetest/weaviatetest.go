package weaviatetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Version is the weaviate-server release the tests pin.
const Version = "v1.35.2"

// startTimeout bounds how long a server may take to become ready (about
// 7 s on a quiet machine).
const startTimeout = 90 * time.Second

// Binary returns the path of the weaviate-server binary.
func Binary() string {
	if p := os.Getenv("SHOPBOT_WEAVIATE_BIN"); p != "" {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		home = "/root"
	}
	return filepath.Join(home, ".cache", "shopbot", "bin", "weaviate-server")
}

// Required reports whether a missing Weaviate must fail tests.
func Required() bool {
	return os.Getenv("CI") == "true" || os.Getenv("SHOPBOT_REQUIRE_WEAVIATE") == "1"
}

// Server is one weaviate-server process and its data directory.
type Server struct {
	// URL is the REST endpoint, e.g. http://127.0.0.1:41234.
	URL string
	// GRPCAddr is the gRPC endpoint, host:port.
	GRPCAddr string

	bin, dir string
	ports    ports

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
	log  *syncBuffer
}

type ports struct{ http, grpc, gossip, data, raft, raftRPC int }

// Start starts a server on a fresh data directory under dir and waits
// until it is ready.
func Start(bin, dir string) (*Server, error) {
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("weaviate-server binary: %w", err)
	}
	ps, err := freePorts(6)
	if err != nil {
		return nil, err
	}
	s := &Server{bin: bin, dir: dir,
		ports: ports{http: ps[0], grpc: ps[1], gossip: ps[2], data: ps[3], raft: ps[4], raftRPC: ps[5]}}
	s.URL = "http://127.0.0.1:" + strconv.Itoa(s.ports.http)
	s.GRPCAddr = "127.0.0.1:" + strconv.Itoa(s.ports.grpc)
	if err := s.Start(); err != nil {
		return nil, err
	}
	return s, nil
}

// Start starts the server process (again, after Stop) on its data
// directory and ports and waits until it is ready.
func (s *Server) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return errors.New("weaviatetest: server already running")
	}
	cmd := exec.Command(s.bin, "--host", "127.0.0.1", "--port", strconv.Itoa(s.ports.http), "--scheme", "http")
	cmd.Env = append(os.Environ(),
		"PERSISTENCE_DATA_PATH="+s.dir,
		"AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED=true",
		"DEFAULT_VECTORIZER_MODULE=none",
		"CLUSTER_HOSTNAME=node1",
		"CLUSTER_ADVERTISE_ADDR=127.0.0.1",
		"RAFT_BOOTSTRAP_EXPECT=1",
		"DISABLE_TELEMETRY=true",
		"GRPC_PORT="+strconv.Itoa(s.ports.grpc),
		"CLUSTER_GOSSIP_BIND_PORT="+strconv.Itoa(s.ports.gossip),
		"CLUSTER_DATA_BIND_PORT="+strconv.Itoa(s.ports.data),
		"RAFT_PORT="+strconv.Itoa(s.ports.raft),
		"RAFT_INTERNAL_RPC_PORT="+strconv.Itoa(s.ports.raftRPC),
		"LOG_LEVEL=warning",
		"QUERY_DEFAULTS_LIMIT=100",
	)
	s.log = &syncBuffer{}
	cmd.Stdout, cmd.Stderr = s.log, s.log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("weaviatetest: start %s: %w", s.bin, err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	s.cmd, s.done = cmd, done
	if err := s.waitReady(done); err != nil {
		s.stopLocked()
		return fmt.Errorf("%w\n--- weaviate-server output ---\n%s", err, s.log.tail(4000))
	}
	return nil
}

func (s *Server) waitReady(done <-chan struct{}) error {
	deadline := time.Now().Add(startTimeout)
	client := &http.Client{Timeout: time.Second}
	for time.Now().Before(deadline) {
		select {
		case <-done:
			return errors.New("weaviatetest: weaviate-server exited before it was ready")
		default:
		}
		resp, err := client.Get(s.URL + "/v1/.well-known/ready")
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("weaviatetest: weaviate-server not ready after %s", startTimeout)
}

// Stop stops the server process (SIGTERM, then SIGKILL after 20 s) and
// keeps its data directory for Start.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopLocked()
}

func (s *Server) stopLocked() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
	s.cmd, s.done = nil, nil
}

// Running reports whether the process is up.
func (s *Server) Running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cmd != nil
}

// Output is the end of the server's log, for failure messages.
func (s *Server) Output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.log == nil {
		return ""
	}
	return s.log.tail(4000)
}

// freePorts reserves n distinct free loopback ports by listening on them
// at once, then releases them for the server.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	out := make([]int, n)
	for i := range out {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("weaviatetest: free port: %w", err)
		}
		ls = append(ls, l)
		out[i] = l.Addr().(*net.TCPAddr).Port
	}
	return out, nil
}

// syncBuffer collects the server's output.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Len() > 1<<20 { // keep the end
		rest := b.buf.Bytes()[b.buf.Len()-1<<19:]
		b.buf = *bytes.NewBuffer(append([]byte(nil), rest...))
	}
	return b.buf.Write(p)
}

func (b *syncBuffer) tail(n int) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.buf.String()
	if len(s) > n {
		s = s[len(s)-n:]
	}
	return s
}

// shared is the package's server, started by the first Shared call.
var shared struct {
	sync.Mutex
	srv *Server
	err error
	dir string
}

// Main runs the tests of a package (call it from TestMain) and stops the
// shared server afterwards, if one was started.
func Main(m *testing.M) {
	code := m.Run()
	shared.Lock()
	if shared.srv != nil {
		shared.srv.Stop()
	}
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	shared.Unlock()
	os.Exit(code)
}

// Shared returns the package's server, starting it on first use. Without
// the binary the test is skipped loudly, or fails when Required.
func Shared(t testing.TB) *Server {
	t.Helper()
	bin := binaryOrSkip(t)
	shared.Lock()
	defer shared.Unlock()
	if shared.srv == nil && shared.err == nil {
		shared.dir, shared.err = os.MkdirTemp("", "weaviatetest-")
		if shared.err == nil {
			start := time.Now()
			shared.srv, shared.err = Start(bin, shared.dir)
			t.Logf("weaviatetest: started weaviate-server %s in %s", Version, time.Since(start).Round(time.Millisecond))
		}
	}
	if shared.err != nil {
		t.Fatalf("weaviatetest: %v", shared.err)
	}
	if !shared.srv.Running() {
		if err := shared.srv.Start(); err != nil { // an earlier test stopped it and failed
			t.Fatalf("weaviatetest: restart: %v", err)
		}
	}
	return shared.srv
}

// New starts a server of the test's own, stopped when the test ends, for
// packages whose TestMain is not Main. Without the binary the test is
// skipped loudly, or fails when Required.
func New(t testing.TB) *Server {
	t.Helper()
	bin := binaryOrSkip(t)
	s, err := Start(bin, t.TempDir())
	if err != nil {
		t.Fatalf("weaviatetest: %v", err)
	}
	t.Cleanup(s.Stop)
	return s
}

func binaryOrSkip(t testing.TB) string {
	t.Helper()
	bin := Binary()
	if _, err := os.Stat(bin); err != nil {
		msg := fmt.Sprintf("weaviate-server binary not found at %s (%v); build it with .ci/weaviate-server", bin, err)
		if Required() {
			t.Fatalf("%s\n(required under CI=true or SHOPBOT_REQUIRE_WEAVIATE=1; or point SHOPBOT_WEAVIATE_BIN at one)", msg)
		}
		t.Skipf("SKIPPING WEAVIATE: %s (set SHOPBOT_REQUIRE_WEAVIATE=1 to make this a failure)", msg)
	}
	return bin
}

// WaitDown waits until the server's port refuses connections, for tests
// that check behaviour during an outage.
func (s *Server) WaitDown(ctx context.Context) error {
	for {
		c, err := net.DialTimeout("tcp", s.URL[len("http://"):], 200*time.Millisecond)
		if err != nil {
			return nil
		}
		c.Close()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
