// Package engine will own the conversation engine: engine.Handle turns a
// normalized Turn from an adapter into replies, running the OpenAI-compatible
// tool-calling loop (openai-go) over the catalog's tools, or the offline
// planner when no model is configured or the model fails.
//
// Nothing is implemented here yet; the catalog it builds on (customers,
// carts with personal and shared scopes, idempotent orders, conversations
// and messages with tool calls) is in package catalog.
package engine
