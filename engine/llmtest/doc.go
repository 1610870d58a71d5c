// Package llmtest is a scripted fake of the OpenAI chat completions API for
// tests, the way net/http/httptest fakes servers. Production code never
// imports it.
//
// A Server listens on loopback and speaks the real /v1/chat/completions wire
// format, so the code under test runs the same openai-go client and the same
// stream parsing it runs in production:
//
//	srv := llmtest.NewServer(t,
//		llmtest.CallTools(llmtest.ToolCall{Name: "search_products", Arguments: `{"query":"red shoes"}`}),
//		llmtest.Reply("Here are two red shoes."),
//	)
//	model := openai.New(openai.Config{BaseURL: srv.URL, Model: "gpt-4o-mini"})
//
// Each request takes the next Step of the script. A Step answers with text,
// tool calls or both (streamed as SSE chunks when the request asked for
// stream: true, as one chat.completion object otherwise), or misbehaves on
// purpose: an OpenAI-style error status, a Retry-After header, a delay, a
// stream that stalls, a chunk that is not JSON. When the script runs out the
// server answers with the step given to SetDefault, or fails the test.
//
// Requests the real API would reject with a 400 (no model, no messages,
// tool results that do not pair up with the assistant's tool calls) get a
// 400 here too, take no step, and fail the test: the engine must never
// send them.
//
// Every request is decoded and kept (Requests), so a test can assert on the
// messages, tools and headers the client really sent. The server is safe for
// concurrent requests and cheap enough to sit under a benchmark.
//
// GET /v1/models answers what SetModels scripts (an empty list by default,
// or an error status), and ModelListCalls counts the requests.
package llmtest
