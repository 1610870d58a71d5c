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

	"shopbot/catalog"
	"shopbot/catalog/dbstats"
	"shopbot/engine"
	"shopbot/engine/loadtest"
	"shopbot/engine/openai"
)

// benchCmd load-tests the engine with an instant (or fixed-latency)
// scripted model served in-process over the OpenAI wire format.
func benchCmd(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	convs := fs.Int("conversations", 100, "concurrent conversations")
	turns := fs.Int("turns", 20, "turns per conversation")
	latency := fs.Duration("model-latency", 0, "time the scripted model takes per call, e.g. 1s")
	ramp := fs.Duration("ramp", -1, "start the conversations evenly over this long (default: one turn's model time, 2 × --model-latency; 0 starts all at once)")
	modelProcess := fs.Bool("model-process", false, "serve the scripted model from a child process, so peak_rss_mb counts the engine alone")
	fresh := fs.Bool("fresh", true, "run on a fresh SQLite file in a temp dir; false uses DATABASE_URL")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file")
	statements := fs.Bool("statements", false, "also list the statements the run sent, most frequent first")
	cfg, err := loadConfig(fs, args, e.getenv)
	if err != nil {
		return err
	}
	if *convs < 1 || *turns < 1 || *convs**turns > 10_000_000 {
		return usagef("--conversations and --turns must be positive (and their product at most 10000000)")
	}
	if *ramp < 0 {
		*ramp = 2 * *latency
	}
	if *fresh {
		dir, err := os.MkdirTemp("", "shopbot-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		cfg.DatabaseURL = "sqlite:" + filepath.Join(dir, "bench.db")
	}
	log := e.logger(slog.LevelError)
	sh, err := openShop(ctx, &cfg, log)
	if err != nil {
		return err
	}
	defer sh.close()
	model, err := startBenchModel(ctx, e, *latency, *modelProcess)
	if err != nil {
		return err
	}
	defer model.stop()
	// The pool's connections opened and ready before the clock starts: the
	// run measures turns, not new Postgres backends loading the schema.
	if err := catalog.WarmPool(ctx, sh.db); err != nil {
		return err
	}
	counted, _ := dbstats.Install(sh.db)
	// The turns run under one counter: what they send, not the
	// background work (the index refresh, pruning) beside them.
	turnStats := &dbstats.Counter{Detail: *statements}
	locks, closeLocks := chatLocks(&cfg)
	defer closeLocks()
	eng, err := engine.New(engine.Config{
		DB: counted, Search: sh.search, Registry: prometheus.NewRegistry(), ChatLocks: locks,
		Model:     loadtest.TimedModel{Model: openai.New(openai.Config{BaseURL: model.URL, Model: "scripted", RequestTimeout: *latency + 30*time.Second})},
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
	cpu0, _ := loadtest.ProcessCPU()
	rep := loadtest.Run(dbstats.With(ctx, turnStats), eng, loadtest.Options{Conversations: *convs, Turns: *turns, Text: "running shoes under 150", Ramp: *ramp,
		Progress: func(n int64) { _ = bar.Set64(n) }})
	cpu1, measured := loadtest.ProcessCPU()
	_ = bar.Finish()
	calls, err := model.stop()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "search %s\nconversations %d\nmodel_latency_ms %d\nramp_ms %d\nmodel_calls %d\n%sgoroutines %d\npeak_rss_mb %d\n",
		sh.search, *convs, latency.Milliseconds(), ramp.Milliseconds(), calls, rep, runtime.NumGoroutine(), peakRSSMB())
	printCPU(e, cpu1-cpu0, measured, model.cpu, rep.Turns)
	printStatements(e, turnStats, rep.Turns)
	if st := sh.db.Stats(); rep.Turns > 0 && st.MaxOpenConnections > 0 {
		// Postgres's pool: connections opened again after being closed
		// as surplus idle ones, and waits for a free one.
		fmt.Fprintf(e.stdout, "pool_idle_closed %d\npool_waits_per_turn %.2f\n", st.MaxIdleClosed, float64(st.WaitCount)/float64(rep.Turns))
	}
	if rep.Errors > 0 {
		return fmt.Errorf("bench: %d of %d turns failed", rep.Errors, rep.Turns)
	}
	return nil
}

// printCPU reports the CPU time a turn cost this process (the engine, its
// database driver and, without --model-process, the scripted model) and,
// with --model-process, the model's process. A machine busy with other
// work moves the turn latencies of a run far more than these: they are the
// figures to compare between builds when the latencies are a queue.
func printCPU(e env, cpu time.Duration, measured bool, modelCPU time.Duration, turns int) {
	if !measured || turns == 0 {
		return
	}
	perTurn := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(turns) }
	fmt.Fprintf(e.stdout, "cpu_ms_per_turn %.3f\n", perTurn(cpu))
	if modelCPU > 0 {
		fmt.Fprintf(e.stdout, "model_cpu_ms_per_turn %.3f\n", perTurn(modelCPU))
	}
}

// printStatements reports the database work per turn: statements (each a
// round trip: the pool's and, on Postgres, the chat lock sessions'),
// transactions, and the time spent waiting on them; with Detail, the
// statements themselves.
func printStatements(e env, c *dbstats.Counter, turns int) {
	if turns == 0 {
		return
	}
	n := c.Counts()
	per := func(v int64) float64 { return float64(v) / float64(turns) }
	fmt.Fprintf(e.stdout, "statements_per_turn %.2f\ntransactions_per_turn %.2f\nreads_per_turn %.2f\nwrites_per_turn %.2f\ndb_wait_ms_per_turn %.3f\n",
		per(n.Statements), per(n.Transactions), per(n.Reads), per(n.Writes), float64(n.Wait.Microseconds())/1000/float64(turns))
	if c.Detail {
		for _, line := range c.Shapes() {
			fmt.Fprintf(e.stdout, "statement %s\n", line)
		}
	}
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
