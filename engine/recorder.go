package engine

import (
	"time"

	"shopbot/catalog"
	"shopbot/engine/llm"
)

// PlannerModel names the offline planner (and buttons) in transcripts:
// the model of the assistant messages no model wrote.
const PlannerModel = "offline-planner"

// recorder collects a turn's messages for the transcript, persisted
// together at the end of the turn.
type recorder struct {
	msgs []*catalog.Message
	// history is what the model saw of earlier turns, nil if this turn
	// did not load it; persist caches it with the turn's messages.
	history []catalog.Message
}

func (r *recorder) add(m *catalog.Message) { r.msgs = append(r.msgs, m) }

// user records the shopper's message (or button press).
func (r *recorder) user(t Turn) {
	content := t.Text
	if t.Action != nil {
		content = "[button] " + t.Action.Encode()
	}
	r.add(&catalog.Message{Role: catalog.RoleUser, Content: content})
}

// assistant records a final reply not produced by the model.
func (r *recorder) assistant(text string) {
	r.add(&catalog.Message{Role: catalog.RoleAssistant, Content: text, Model: PlannerModel})
}

// modelReply records one model call with its tool calls and usage.
func (r *recorder) modelReply(resp llm.ChatResponse) {
	r.add(&catalog.Message{
		Role: catalog.RoleAssistant, Content: resp.Text, ToolCalls: resp.ToolCalls,
		PromptTokens: resp.PromptTokens, CompletionTokens: resp.CompletionTokens,
		Model: resp.Model, LatencyMS: int(resp.Latency / time.Millisecond),
	})
}

// toolCalls records calls made without a model (planner, buttons).
func (r *recorder) toolCalls(calls []catalog.ToolCall) {
	r.add(&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: calls, Model: PlannerModel})
}

// tool records a tool result.
func (r *recorder) tool(out toolOutcome) {
	r.add(&catalog.Message{
		Role: catalog.RoleTool, ToolCallID: out.call.ID, ToolName: out.call.Name,
		Content: out.content, ToolError: out.isErr, LatencyMS: int(out.latency / time.Millisecond),
	})
}

// tokens sums the model tokens of the turn.
func (r *recorder) tokens() int {
	n := 0
	for _, m := range r.msgs {
		n += m.PromptTokens + m.CompletionTokens
	}
	return n
}
