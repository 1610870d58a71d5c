package llm

import (
	"context"
	"errors"
	"time"

	"shopbot/catalog"
)

// Model is the language model as the engine sees it: one chat completion
// with tools, streaming text deltas to onDelta as they arrive.
// openai.Client (package engine/openai) implements it over any
// OpenAI-compatible server.
type Model interface {
	Chat(ctx context.Context, req ChatRequest, onDelta func(text string)) (ChatResponse, error)
}

// ErrModelUnavailable reports a model that failed after its retries (or
// failed in a way retrying cannot fix); the engine then answers with the
// offline planner.
var ErrModelUnavailable = errors.New("model unavailable")

// ChatMessage is one message of a chat request.
type ChatMessage struct {
	Role       catalog.Role // system, user, assistant or tool
	Content    string
	ToolCalls  []catalog.ToolCall // assistant messages that call tools
	ToolCallID string             // tool results
}

// ToolSpec describes a tool to the model.
type ToolSpec struct {
	Name        string
	Description string
	Parameters  map[string]any // JSON Schema of the arguments
}

// ChatRequest is one call to the model.
type ChatRequest struct {
	Messages []ChatMessage
	Tools    []ToolSpec
}

// ChatResponse is the model's answer: text, tool calls, or both.
type ChatResponse struct {
	Text             string
	ToolCalls        []catalog.ToolCall
	Model            string
	PromptTokens     int
	CompletionTokens int
	Latency          time.Duration
}
