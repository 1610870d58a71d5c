// Package llm is the language model as the rest of Shopbot sees it: the
// Model interface (one chat completion with tools, text deltas streamed
// to a callback) and its wire-neutral request and response types
// (ChatRequest of ChatMessages and ToolSpecs, ChatResponse with tool calls,
// token counts and latency), plus ErrModelUnavailable, the one error that
// sends the engine to its offline planner.
//
// It is the lowest of the engine's packages and imports only catalog (for
// roles and tool calls): engine/tools describes its tools as ToolSpecs,
// engine builds ChatRequests and calls a Model, and engine/openai
// implements Model over the OpenAI wire format. None of them imports
// another through it.
package llm
