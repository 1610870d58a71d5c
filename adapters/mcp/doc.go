// Package mcp is the shop's door for AI agents: a Model Context Protocol
// server (streamable HTTP, the official Go SDK) mounted at /mcp.
//
// The tools it offers are not written here: Handler asks the engine for
// the tools agents may call (engine.AgentTools: name, description and
// the strict JSON schema of the engine's tool registry, with read-only,
// destructive and idempotent hints), so a tool added for chat appears
// for agents with one schema and one implementation. A tools/call runs
// the engine's tool (engine.CallTool) as a turn of the agent's own
// conversation in channel "agent": the MCP session id is the chat and
// the shopper, so a cart belongs to the session and no argument can name
// another's; the per-customer rate limit, the 4 KiB argument bound and
// the schema checks of the chat tools apply; and every call with its
// result is in the transcript the admin inbox shows.
//
// A result carries the tool's JSON twice, as MCP asks: as text for the
// agent's model and as structuredContent (an object; a tool whose data
// is not one is wrapped as {"result": ...}). A refused call (rate limit,
// database down) is a tool error with a sentence, never a protocol
// failure. Options.Token, when set, is a bearer token every request must
// carry (401 otherwise).
package mcp
