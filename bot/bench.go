package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/schollz/progressbar/v3"
	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/engine"
	"shopbot/engine/loadtest"
)

// benchCmd load-tests the engine with an instant (or fixed-latency)
// scripted model served in-process over the OpenAI wire format.
func benchCmd(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	convs := fs.Int("conversations", 100, "concurrent conversations")
	turns := fs.Int("turns", 20, "turns per conversation")
	latency := fs.Duration("model-latency", 0, "time the scripted model takes per call, e.g. 1s")
	dbURL := fs.String("database-url", "", "database to run on (default: a fresh SQLite file in a temp dir)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *convs < 1 || *turns < 1 || *convs**turns > 10_000_000 {
		return usagef("--conversations and --turns must be positive (and their product at most 10000000)")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops the index following the catalog
	db, cleanup, err := benchDB(ctx, *dbURL)
	if err != nil {
		return err
	}
	defer cleanup()
	model, err := loadtest.StartModel(*latency, `{"query":"running shoes","max_price":150}`)
	if err != nil {
		return err
	}
	defer model.Close()
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	srch, err := newSearch(&Config{SearchBackend: "embedded"}, log)
	if err != nil {
		return err
	}
	if err := srch.load(ctx, db, log); err != nil {
		return err
	}
	eng, err := engine.New(engine.Config{
		DB: db, Search: srch, Registry: prometheus.NewRegistry(),
		Model:     loadtest.TimedModel{Model: engine.NewOpenAI(engine.OpenAIConfig{BaseURL: model.URL, Model: "scripted", RequestTimeout: *latency + 30*time.Second})},
		RateLimit: 1 << 30, DailyTokens: 1 << 30,
		Logger: log,
	})
	if err != nil {
		return err
	}
	total := int64(*convs * *turns)
	bar := progressbar.DefaultSilent(total)
	if isTerminal(e.stderr) {
		bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(e.stderr), progressbar.OptionSetDescription("turns"),
			progressbar.OptionShowCount(), progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionShowIts())
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	rep := loadtest.Run(ctx, eng, loadtest.Options{Conversations: *convs, Turns: *turns, Text: "running shoes under 150",
		Progress: func(n int64) { _ = bar.Set64(n) }})
	_ = bar.Finish()
	fmt.Fprintf(e.stdout, "conversations %d\nmodel_latency_ms %d\nmodel_calls %d\n%sgoroutines %d\npeak_rss_mb %d\n",
		*convs, latency.Milliseconds(), model.Calls(), rep, runtime.NumGoroutine(), peakRSSMB())
	if rep.Errors > 0 {
		return fmt.Errorf("bench: %d of %d turns failed", rep.Errors, rep.Turns)
	}
	return nil
}

// benchDB opens the database to bench on, by default a fresh SQLite file
// with the demo catalog.
func benchDB(ctx context.Context, url string) (*bun.DB, func(), error) {
	dir := ""
	if url == "" {
		var err error
		if dir, err = os.MkdirTemp("", "shopbot-bench-"); err != nil {
			return nil, nil, err
		}
		url = "sqlite:" + filepath.Join(dir, "bench.db")
	}
	db, info, err := catalog.OpenDB(url)
	if err != nil {
		return nil, nil, err
	}
	cleanup := func() {
		db.Close()
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	if _, err := prepare(ctx, db); err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("prepare %s: %w", info, err)
	}
	return db, cleanup, nil
}

// peakRSSMB reads the process's peak resident memory (Linux), 0 elsewhere.
func peakRSSMB() int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), &kb)
			return kb / 1024
		}
	}
	return 0
}
