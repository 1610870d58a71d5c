package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"shopbot/engine/loadtest"
)

// benchToolArgs are the search_products arguments the scripted model asks for.
const benchToolArgs = `{"query":"running shoes","max_price":150}`

// benchModel is the scripted model of a bench run, served in this process
// or by a child `shopbot bench-model`.
type benchModel struct {
	URL      string
	stopOnce sync.Once
	stopFn   func() (int64, error)
	calls    int64
	err      error
	// cpu is the CPU time the child used in its whole life, start-up
	// included (zero for a model served in this process, whose CPU
	// includes the model's).
	cpu time.Duration
}

// stop shuts the model down and returns how many completions it served.
// It may be called more than once.
func (m *benchModel) stop() (int64, error) {
	m.stopOnce.Do(func() { m.calls, m.err = m.stopFn() })
	return m.calls, m.err
}

func startBenchModel(ctx context.Context, e env, latency time.Duration, child bool) (*benchModel, error) {
	if !child {
		m, err := loadtest.StartModel(latency, benchToolArgs)
		if err != nil {
			return nil, err
		}
		return &benchModel{URL: m.URL, stopFn: func() (int64, error) { return m.Calls(), m.Close() }}, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("bench: find own binary for the model process: %w", err)
	}
	cmd := exec.CommandContext(ctx, exe, "bench-model", "--model-latency", latency.String())
	cmd.Stderr = e.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench: start the model process: %w", err)
	}
	out := bufio.NewReader(stdout)
	url, err := out.ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("bench: the model process did not start: %w", err)
	}
	m := &benchModel{URL: strings.TrimSpace(url)}
	m.stopFn = func() (int64, error) {
		_ = stdin.Close() // the child's cue to report and exit
		line, _ := out.ReadString('\n')
		if err := cmd.Wait(); err != nil {
			return 0, fmt.Errorf("bench: model process: %w", err)
		}
		m.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		return strconv.ParseInt(strings.TrimSpace(line), 10, 64)
	}
	return m, nil
}

// benchModelCmd serves the scripted model for a parent `shopbot bench
// --model-process`: it prints its base URL, serves until its stdin closes,
// then prints the number of completions served.
func benchModelCmd(_ context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("bench-model", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	latency := fs.Duration("model-latency", 0, "time the scripted model takes per call")
	describe(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	m, err := loadtest.StartModel(*latency, benchToolArgs)
	if err != nil {
		return err
	}
	defer m.Close()
	fmt.Fprintln(e.stdout, m.URL)
	_, _ = io.Copy(io.Discard, e.stdin)
	fmt.Fprintln(e.stdout, m.Calls())
	return nil
}
