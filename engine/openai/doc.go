// Package openai is Shopbot's model client: an llm.Model over any
// OpenAI-compatible chat completions server (OpenAI, Azure, Ollama, vLLM,
// llama.cpp, OpenRouter), built on openai-go's request path and errors.
//
// A Chat call flows like this: the llm.ChatRequest becomes one JSON body
// (wire.go; the tool schemas are encoded once and reused while they stay
// the same; a body goes back to a pool once the transport has finished
// writing it), sent always streamed; text deltas go to the caller as they
// arrive and the chunks are accumulated into an llm.ChatResponse with tool
// calls and token counts (client.go). The events are read as the SDK's
// decoder reads them but through pooled buffers (sse.go), each chunk
// decoded in one pass (wire.go), and request bodies reach a plain HTTP
// connection through a pooled copy buffer (conn.go). Retries are ours, not the SDK's
// (retry.go): timeouts, 429 and 5xx are retried with capped, jittered
// backoff honouring Retry-After, but never after text reached the shopper;
// what cannot be retried comes back as llm.ErrModelUnavailable. The API
// key is scrubbed from every error and never logged, nor are messages.
//
// It imports engine/llm and catalog only; the engine never imports it
// (bot wires a Client in as the engine's Model). WithModel makes a sibling
// client for another model name, which the engine's live settings use.
//
// Check (check.go) asks GET /models once, without retries, for the
// process's channel status: 404 is a server without the list, still
// reachable; 401/403 are a *KeyRefusedError.
package openai
