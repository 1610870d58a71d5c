package engine

import (
	"context"
	"shopbot/engine/session"
)

// The turn's side of the effects journal: the tools journal each effect
// (engine/tools, effects.go); the engine gives each turn its Journal,
// hands it the crash hook (Config.Crash) and the turn context's cancel,
// and stops a crashed turn before it persists or sends anything more.

// stoppableSink drops a crashed turn's events, as a dead process would
// send none (only used with Config.Crash).
func stoppableSink(sink Sink, j *session.Journal) Sink {
	return SinkFunc(func(ctx context.Context, ev Event) error {
		if j.Stopped() {
			return session.ErrCrashed
		}
		return sink.Send(ctx, ev)
	})
}
