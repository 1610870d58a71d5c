package engine

import (
	"context"

	"shopbot/catalog"
	"shopbot/engine/planner"
	"shopbot/engine/session"
)

// The offline planner answers when there is no model, when the customer's
// token budget is spent, or when the model failed (respond, engine.go);
// button presses that walk checkout use it too (actions.go). Its calls go
// into the transcript as a model's would, and its answer to the sink.

// runPlanner answers with the offline planner: no model, same tools.
func (e *Engine) runPlanner(ctx context.Context, s *session.Session, sink Sink, rec *recorder) error {
	return e.answerOffline(ctx, s, sink, rec, s.Text)
}

func (e *Engine) answerOffline(ctx context.Context, s *session.Session, sink Sink, rec *recorder, text string) error {
	plan, err := e.planner.Answer(ctx, s, text)
	return e.emitPlan(ctx, s, sink, rec, plan, err)
}

// emitPlan records the planner's calls and sends its answer.
func (e *Engine) emitPlan(ctx context.Context, s *session.Session, sink Sink, rec *recorder, plan planner.Plan, err error) error {
	if err != nil {
		return err
	}
	if len(plan.Calls) > 0 {
		calls := make([]catalog.ToolCall, len(plan.Calls))
		for i, c := range plan.Calls {
			calls[i] = catalog.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Args}
		}
		rec.toolCalls(calls)
		for i, c := range plan.Calls {
			rec.tool(toolOutcome{call: calls[i], content: c.Content, isErr: c.IsErr})
			status := "ok"
			if c.IsErr {
				status = "error"
			}
			e.metrics.toolCalls.WithLabelValues(c.Name, status).Inc()
		}
	}
	for _, res := range plan.Results {
		if len(plan.Buttons) > 0 {
			res.Buttons = nil // the planner chose the buttons for this reply
		}
		if err := emitResult(ctx, sink, res); err != nil {
			return err
		}
	}
	if len(plan.Buttons) > 0 {
		if err := sink.Send(ctx, Event{Kind: EventButtons, Buttons: plan.Buttons}); err != nil {
			return err
		}
	}
	rec.assistant(plan.Text)
	return sendText(ctx, sink, plan.Text)
}

func choose(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}
