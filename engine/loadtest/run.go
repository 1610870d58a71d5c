package loadtest

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"shopbot/engine"
	"shopbot/engine/llm"
)

// TimedModel wraps the engine's model to measure the time spent in it per
// turn, so the report can subtract it.
type TimedModel struct {
	llm.Model
}

type spentKey struct{}

// WithSpent returns ctx carrying spent, to which TimedModel adds the time
// every model call of a turn run under it takes.
func WithSpent(ctx context.Context, spent *atomic.Int64) context.Context {
	return context.WithValue(ctx, spentKey{}, spent)
}

// Chat implements llm.Model, adding its duration to the turn's counter.
func (t TimedModel) Chat(ctx context.Context, req llm.ChatRequest, onDelta func(string)) (llm.ChatResponse, error) {
	start := time.Now()
	resp, err := t.Model.Chat(ctx, req, onDelta)
	if spent, ok := ctx.Value(spentKey{}).(*atomic.Int64); ok {
		spent.Add(int64(time.Since(start)))
	}
	return resp, err
}

// Options shape a load run.
type Options struct {
	Conversations int    // concurrent conversations
	Turns         int    // turns per conversation
	Text          string // what each shopper says
	// Ramp spreads the conversations' first turns evenly over this long.
	// With none, every conversation starts at once and, against a model
	// of fixed latency, they stay in lockstep: every turn then arrives in
	// the same instant as all the others, which no real shop sees.
	Ramp time.Duration
	// Progress, when set, is called after every turn with the count done.
	Progress func(done int64)
}

// Report is the outcome of a run.
type Report struct {
	Turns       int
	Errors      int
	Elapsed     time.Duration
	TurnsPerSec float64
	// Engine is the engine's own time per turn (model time subtracted).
	EngineP50, EngineP99 time.Duration
	// Total is the whole turn, model included.
	TotalP50, TotalP99 time.Duration
}

func (r Report) String() string {
	return fmt.Sprintf("turns %d\nerrors %d\nelapsed_s %.2f\nturns_per_s %.0f\nengine_p50_ms %.3f\nengine_p99_ms %.3f\nturn_p50_ms %.3f\nturn_p99_ms %.3f\n",
		r.Turns, r.Errors, r.Elapsed.Seconds(), r.TurnsPerSec, ms(r.EngineP50), ms(r.EngineP99), ms(r.TotalP50), ms(r.TotalP99))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Run drives opts.Conversations concurrent conversations of opts.Turns
// turns each through h.
func Run(ctx context.Context, h interface {
	Handle(context.Context, engine.Turn, engine.Sink) error
}, opts Options) Report {
	var (
		mu            sync.Mutex
		engineT, allT []time.Duration
		errs          atomic.Int64
		done          atomic.Int64
		wg            sync.WaitGroup
	)
	sink := engine.SinkFunc(func(context.Context, engine.Event) error { return nil })
	start := time.Now()
	for c := 0; c < opts.Conversations; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if opts.Ramp > 0 {
				select {
				case <-time.After(opts.Ramp * time.Duration(c) / time.Duration(opts.Conversations)):
				case <-ctx.Done():
					return
				}
			}
			id := fmt.Sprintf("load-%d", c)
			// Turn keys are unique per run: on a reused database, the
			// engine would skip an earlier run's keys as replays.
			run := start.UnixNano()
			for i := 0; i < opts.Turns && ctx.Err() == nil; i++ {
				var spent atomic.Int64
				tctx := WithSpent(ctx, &spent)
				t0 := time.Now()
				err := h.Handle(tctx, engine.Turn{Channel: "bench", ChatID: id, UserID: id, Text: opts.Text, DedupKey: fmt.Sprint(run, "-", i)}, sink)
				total := time.Since(t0)
				if err != nil {
					errs.Add(1)
				}
				mu.Lock()
				allT = append(allT, total)
				engineT = append(engineT, total-time.Duration(spent.Load()))
				mu.Unlock()
				if opts.Progress != nil {
					opts.Progress(done.Add(1))
				}
			}
		}()
	}
	wg.Wait()
	r := Report{Turns: len(allT), Errors: int(errs.Load()), Elapsed: time.Since(start)}
	r.TurnsPerSec = float64(r.Turns) / r.Elapsed.Seconds()
	r.EngineP50, r.EngineP99 = percentiles(engineT)
	r.TotalP50, r.TotalP99 = percentiles(allT)
	return r
}

func percentiles(ds []time.Duration) (p50, p99 time.Duration) {
	if len(ds) == 0 {
		return 0, 0
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2], ds[len(ds)*99/100]
}
