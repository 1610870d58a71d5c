package engine

import (
	"fmt"
	"shopbot/engine/toolkit"

	"shopbot/catalog"
)

// A model reply may ask for any number of tool calls; a turn must not run
// them all, nor send them all back. Of one reply,
//
//   - the first MaxToolCalls run (maxParallelTools at a time);
//   - the next MaxToolCalls are skipped: each still gets a tool message, an
//     error the model reads, so the assistant message and its results pair
//     up as the OpenAI wire format requires;
//   - any beyond those are dropped from the conversation (neither sent back
//     nor persisted as calls); the last skipped call's error counts them.
//
// So one round adds at most 1+2·MaxToolCalls messages to the request and
// to the transcript, and a request holds at most maxRequestMessages.

// defaultMaxToolCalls is Config.MaxToolCalls when unset.
const defaultMaxToolCalls = 16

// maxParallelTools bounds the tools of one round running at the same time.
const maxParallelTools = 8

// maxRequestMessages is the most messages one model request can hold: the
// system prompt, the history window, the shopper's message, and every
// earlier round's assistant message with its (capped) tool messages.
func maxRequestMessages(cfg Config) int {
	return 2 + cfg.HistoryMessages + (cfg.MaxRounds-1)*(1+2*cfg.MaxToolCalls)
}

// toolRound is one reply's tool calls after the cap.
type toolRound struct {
	run     []catalog.ToolCall // run, in order
	skipped []catalog.ToolCall // answered with an error, not run
	dropped int                // left out of the conversation
}

// capToolCalls splits calls as described above; limit is MaxToolCalls.
func capToolCalls(calls []catalog.ToolCall, limit int) toolRound {
	if len(calls) <= limit {
		return toolRound{run: calls}
	}
	kept := min(len(calls), 2*limit)
	return toolRound{run: calls[:limit], skipped: calls[limit:kept], dropped: len(calls) - kept}
}

// kept is what the assistant message sent back and persisted carries.
func (r toolRound) kept() []catalog.ToolCall {
	if len(r.skipped) == 0 {
		return r.run
	}
	return append(r.run[:len(r.run):len(r.run)], r.skipped...)
}

// skippedOutcomes are the tool messages of the skipped calls.
func (r toolRound) skippedOutcomes(limit int) []toolOutcome {
	outs := make([]toolOutcome, len(r.skipped))
	for i, call := range r.skipped {
		msg := fmt.Sprintf("too many tool calls in one reply: at most %d run; this one was skipped", limit)
		if i == len(r.skipped)-1 && r.dropped > 0 {
			msg = fmt.Sprintf("too many tool calls in one reply: at most %d run; this one and the %d after it were skipped", limit, r.dropped)
		}
		err := toolkit.Errorf("%s", msg)
		outs[i] = toolOutcome{call: call, err: err}
		outs[i].content, outs[i].isErr = toolkit.ModelMessage(toolkit.Result{}, err)
	}
	return outs
}
