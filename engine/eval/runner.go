package eval

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/uptrace/bun"

	"shopbot/catalog/sandbox"
	"shopbot/engine"
	"shopbot/engine/outcome"
)

// Handler runs a turn: the engine.
type Handler interface {
	Handle(ctx context.Context, t engine.Turn, sink engine.Sink) error
}

// Runner runs scenarios, each in its own copy of the shop.
type Runner struct {
	Template *sandbox.Template
	// NewEngine builds the engine of one scenario over its copy of the
	// shop (bot wires the configured search, model and settings).
	NewEngine func(db *bun.DB) (Handler, error)
	// Parallel is how many scenarios run at once (default 4).
	Parallel int
}

// channel is the channel of eval's shoppers, so their rows say where they
// came from.
const channel = "eval"

// Run runs every scenario and reports them in the given order whatever
// order they finished in. A canceled ctx stops the run with its error.
func (r *Runner) Run(ctx context.Context, scs []Scenario) (*Report, error) {
	par := r.Parallel
	if par <= 0 {
		par = 4
	}
	results := make([]Result, len(scs))
	sem := make(chan struct{}, par)
	var wg sync.WaitGroup
	for i := range scs {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			results[i] = r.runOne(ctx, i, &scs[i])
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep := &Report{Results: results, Total: len(results)}
	for _, res := range results {
		if res.Passed {
			rep.Passed++
		}
	}
	return rep, nil
}

// runOne runs a scenario as shopper number i, stopping at its first
// failing turn.
func (r *Runner) runOne(ctx context.Context, i int, sc *Scenario) Result {
	res := Result{Name: sc.Name, Line: sc.Line}
	err := r.inSandbox(ctx, func(db *bun.DB, h Handler) error {
		who := outcome.Shopper{Channel: channel, ChatID: fmt.Sprintf("shopper-%d", i+1), UserID: fmt.Sprintf("shopper-%d", i+1)}
		var state outcome.State
		for k := range sc.Turns {
			step, next, err := runTurn(ctx, db, h, who, sc, k, state)
			if err != nil {
				return err
			}
			res.Transcript = append(res.Transcript, step)
			if step.Failure != "" {
				res.Turn, res.Failure = k+1, step.Failure
				return nil
			}
			state = next
		}
		res.Passed = true
		return nil
	})
	if err != nil {
		res.Passed, res.Failure = false, "could not run: "+err.Error()
	}
	return res
}

// inSandbox runs fn on a fresh copy of the shop and its own engine, and
// deletes the copy after.
func (r *Runner) inSandbox(ctx context.Context, fn func(db *bun.DB, h Handler) error) (err error) {
	cp, err := r.Template.Open(ctx)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, cp.Close()) }()
	h, err := r.NewEngine(cp.DB)
	if err != nil {
		return err
	}
	return fn(cp.DB, h)
}

// runTurn runs turn k and checks it.
func runTurn(ctx context.Context, db *bun.DB, h Handler, who outcome.Shopper, sc *Scenario, k int, before outcome.State) (Step, outcome.State, error) {
	t := sc.Turns[k]
	in := engine.Turn{
		Channel: who.Channel, ChatID: who.ChatID, UserID: who.UserID, UserName: sc.User, Locale: sc.Locale,
		Text: t.Say, Action: t.Press, DedupKey: fmt.Sprintf("eval-%d", k+1),
	}
	var c outcome.Collector
	herr := h.Handle(ctx, in, &c)
	if ctx.Err() != nil {
		return Step{}, before, ctx.Err()
	}
	o := c.Outcome()
	after, err := outcome.Read(ctx, db, who, before, &o)
	if err != nil {
		return Step{}, before, err
	}
	step := Step{Turn: k + 1, Input: t.Input(), Outcome: o}
	if herr != nil {
		step.Outcome.Error = herr.Error()
		step.Failure = "the engine failed: " + herr.Error()
	} else {
		step.Failure = t.Expect.Check(&o)
	}
	return step, after, nil
}
