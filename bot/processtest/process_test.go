package processtest

import (
	"bufio"
	"bytes"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"shopbot/bot/internal/servetest"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// These tests run the real binary, as a user or an orchestrator would.

func TestProcessMalformedDatabaseURL(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(shopbotBinary(t))
	cmd.Env = append(os.Environ(), "DATABASE_URL=mysql://root:hunter2@db/shop")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != 2 {
		t.Fatalf("err = %v, want exit status 2", err)
	}
	msg := stderr.String()
	if strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "shopbot: DATABASE_URL must start with postgres:// or sqlite:") {
		t.Errorf("stderr = %q, want one clear line", msg)
	}
	if strings.Contains(msg, "hunter2") || stdout.Len() != 0 {
		t.Errorf("stdout %q, stderr %q", stdout.String(), msg)
	}
}

func TestProcessGracefulShutdown(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd := exec.Command(shopbotBinary(t), "serve")
	cmd.Env = append(os.Environ(), "DATABASE_URL=sqlite:"+filepath.Join(dir, "shop.db"), "HTTP_ADDR=127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr servetest.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()

	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var base string
	deadline := time.After(20 * time.Second)
	for base == "" {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("serve exited; stderr: %s", stderr.String())
			}
			if m := servetest.AddrRE.FindStringSubmatch(line); m != nil {
				base = "http://" + m[1]
			}
		case <-deadline:
			t.Fatalf("no address printed; stderr: %s", stderr.String())
		}
	}
	go func() {
		for range lines { // keep the pipe drained
		}
	}()
	waitFor200(t, base+"/readyz")

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v; stderr: %s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no exit within 20 s of SIGTERM")
	}
	if !strings.Contains(stderr.String(), "shutting down") {
		t.Errorf("stderr: %s", stderr.String())
	}
}

func waitFor200(t *testing.T, url string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never answered 200 (last: %v)", url, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// bench with the scripted model in a child process (the figure for peak
// memory counts the engine alone): every turn completes, two model calls
// each, counted by the child; the CPU a turn cost each process is
// reported.
func TestProcessBenchModelProcess(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(shopbotBinary(t), "bench", "--conversations", "3", "--turns", "2", "--ramp", "20ms", "--model-process")
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, out)
	}
	for _, want := range []string{"\nturns 6\n", "\nerrors 0\n", "\nmodel_calls 12\n", "\nramp_ms 20\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", strings.TrimSpace(want), out)
		}
	}
	for _, figure := range []string{"cpu_ms_per_turn", "model_cpu_ms_per_turn"} {
		m := regexp.MustCompile(`(?m)^` + figure + ` ([0-9.]+)$`).FindStringSubmatch(string(out))
		if m == nil {
			t.Errorf("output lacks %s:\n%s", figure, out)
			continue
		}
		if v, err := strconv.ParseFloat(m[1], 64); err != nil || v <= 0 {
			t.Errorf("%s %s, want a positive time", figure, m[1])
		}
	}
}
