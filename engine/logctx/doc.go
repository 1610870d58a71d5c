// Package logctx carries the ids a log line is about in the context —
// the HTTP request, the conversation of the engine's turn — and the
// slog.Handler that attaches them, with the OpenTelemetry trace id of the
// span in the context, to every record logged with that context.
//
// The ids are set once where they are known (bot's HTTP middleware sets
// the request id; engine.Handle starts the turn and names its
// conversation once it is opened), never by each log call: a call only
// has to pass its ctx (InfoContext, WarnContext, ...).
package logctx
