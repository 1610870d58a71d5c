package engine

import (
	"context"
	"shopbot/engine/toolkit"
	"strings"
	"sync"
	"time"

	"shopbot/catalog"
	"shopbot/engine/llm"
	"shopbot/engine/session"
)

// runModel is the tool-calling loop: call the model with every tool →
// run the tools it asks for (concurrently, at most MaxToolCalls of a reply;
// toolcap.go) → feed the results back → repeat until it answers in text,
// at most MaxRounds calls.
func (e *Engine) runModel(ctx context.Context, s *session.Session, sink Sink, rec *recorder) error {
	msgs, err := e.modelMessages(ctx, s, rec)
	if err != nil {
		return err
	}
	specs := e.tools.Specs()
	var results []toolkit.Result
	retriedEmpty := false
	for round := 0; round < e.cfg.MaxRounds; round++ {
		resp, err := e.callModel(ctx, llm.ChatRequest{Messages: msgs, Tools: specs}, sink)
		if err != nil {
			return err
		}
		capped := capToolCalls(resp.ToolCalls, e.cfg.MaxToolCalls)
		resp.ToolCalls = capped.kept()
		rec.modelReply(resp)
		if len(resp.ToolCalls) == 0 {
			if strings.TrimSpace(resp.Text) == "" && !retriedEmpty && len(results) > 0 {
				retriedEmpty = true // one more chance to summarize the tool results
				continue
			}
			return e.finish(ctx, s, sink, resp.Text, results)
		}
		msgs = append(msgs, llm.ChatMessage{Role: catalog.RoleAssistant, Content: resp.Text, ToolCalls: resp.ToolCalls})
		if err := sink.Send(ctx, Event{Kind: EventTyping}); err != nil {
			return err
		}
		e.metrics.toolCallsSkipped.Add(float64(len(capped.skipped) + capped.dropped))
		outs := append(e.runTools(ctx, s, capped.run), capped.skippedOutcomes(e.cfg.MaxToolCalls)...)
		e.latestCart(ctx, s, outs)
		for _, out := range outs {
			rec.tool(out)
			msgs = append(msgs, llm.ChatMessage{Role: catalog.RoleTool, ToolCallID: out.call.ID, Content: out.content})
			if out.err == nil {
				results = append(results, out.res)
				if err := emitResult(ctx, sink, out.res); err != nil {
					return err
				}
			}
		}
	}
	msg := engineMessage(s.Locale, msgRoundsExhausted)
	rec.assistant(msg)
	return sendText(ctx, sink, msg)
}

// callModel makes one model request, streaming text deltas to the sink.
func (e *Engine) callModel(ctx context.Context, req llm.ChatRequest, sink Sink) (resp llm.ChatResponse, err error) {
	mctx, span := e.startModelSpan(ctx)
	defer func() { endModelSpan(span, resp, err) }()
	resp, err = e.cfg.Model.Chat(mctx, req, func(delta string) {
		_ = sink.Send(ctx, Event{Kind: EventText, Text: delta})
	})
	if err != nil {
		e.metrics.modelCalls.WithLabelValues("error").Inc()
		return resp, err
	}
	e.metrics.modelCalls.WithLabelValues("ok").Inc()
	e.metrics.modelSeconds.Observe(resp.Latency.Seconds())
	e.metrics.modelTokens.WithLabelValues("prompt").Add(float64(resp.PromptTokens))
	e.metrics.modelTokens.WithLabelValues("completion").Add(float64(resp.CompletionTokens))
	return resp, nil
}

// finish completes a model turn: facts in the text are checked against the
// tool results, corrections appended, and the full answer sent.
func (e *Engine) finish(ctx context.Context, s *session.Session, sink Sink, answer string, results []toolkit.Result) error {
	if strings.TrimSpace(answer) == "" {
		answer = engineMessage(s.Locale, msgEmptyAnswer)
		if err := sink.Send(ctx, Event{Kind: EventText, Text: answer}); err != nil {
			return err
		}
	}
	if note := e.checkFacts(ctx, s, answer, results); note != "" {
		if err := sink.Send(ctx, Event{Kind: EventText, Text: note}); err != nil {
			return err
		}
		answer += note
	}
	return sink.Send(ctx, Event{Kind: EventDone, Text: answer})
}

// toolOutcome is one executed tool call.
type toolOutcome struct {
	call    catalog.ToolCall
	res     toolkit.Result
	err     error
	content string // what the model reads
	isErr   bool
	latency time.Duration
}

// runTools runs a round's tool calls concurrently, maxParallelTools at a
// time. Each call works on its
// own copy of the conversation state; afterwards the state of the last
// call that changed it (in call order) is kept, so calls never race.
func (e *Engine) runTools(ctx context.Context, s *session.Session, calls []catalog.ToolCall) []toolOutcome {
	if len(calls) == 1 {
		// One call (the usual round): it cannot race, and the state it
		// leaves is the one kept, so it runs on the session itself —
		// no JSON copy of the state in and out (the engine's largest
		// per-turn cost after persistence, see docs/benchmarks.md).
		return []toolOutcome{e.runTool(ctx, s, calls[0])}
	}
	before := s.State.Encode()
	outs := make([]toolOutcome, len(calls))
	states := make([]*session.State, len(calls))
	var wg sync.WaitGroup
	slots := make(chan struct{}, maxParallelTools)
	for i, call := range calls {
		cs := *s
		cs.State = session.LoadState(before)
		states[i] = cs.State
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			outs[i] = e.runTool(ctx, &cs, call)
		}()
	}
	wg.Wait()
	for _, st := range states {
		if st.Encode() != before {
			s.State = st
		}
	}
	return outs
}

func (e *Engine) runTool(ctx context.Context, s *session.Session, call catalog.ToolCall) toolOutcome {
	return e.runToolIn(ctx, e.tools, s, call)
}

// runToolIn runs call with the tools of tb.
func (e *Engine) runToolIn(ctx context.Context, tb *toolkit.Toolbox, s *session.Session, call catalog.ToolCall) toolOutcome {
	start := time.Now()
	ctx, span := e.startToolSpan(ctx)
	res, err := tb.Call(ctx, s, call.Name, call.Arguments)
	out := toolOutcome{call: call, res: res, err: err, latency: time.Since(start)}
	defer func() { endToolSpan(span, call.Name, out) }()
	out.content, out.isErr = toolkit.ModelMessage(res, err)
	status := "ok"
	if out.isErr {
		status = "error"
		if !tb.Has(call.Name) {
			call.Name = "unknown"
		}
	}
	e.metrics.toolCalls.WithLabelValues(call.Name, status).Inc()
	if err != nil && !toolkit.IsUserError(err) {
		e.log.ErrorContext(ctx, "tool failed", "tool", call.Name, "err", err)
	}
	return out
}
