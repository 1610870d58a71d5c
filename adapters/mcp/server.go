package mcp

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"shopbot/engine"
	"shopbot/engine/agentdoor"
)

// Engine is what the door needs of the engine.
type Engine interface {
	AgentTools() []agentdoor.Tool
	CallTool(ctx context.Context, t engine.Turn, name, args string) (agentdoor.Reply, error)
}

// Options configure the door.
type Options struct {
	// Token, when set, must come as "Authorization: Bearer <token>".
	Token string
	// Name and Version name the server to clients (serverInfo).
	Name, Version string
	// MaxBodyBytes bounds a request body (0: 64 KiB). Tool arguments
	// are bounded again, tighter, by the engine (4 KiB).
	MaxBodyBytes int64
	Logger       *slog.Logger
}

const defaultMaxBody = 64 << 10

// Handler serves the MCP endpoint: one MCP server whose tools are the
// engine's agent tools, over streamable HTTP, behind the token check.
func Handler(eng Engine, opts Options) http.Handler {
	if opts.Name == "" {
		opts.Name = "shopbot"
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = defaultMaxBody
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: opts.Name, Version: opts.Version}, &sdk.ServerOptions{Logger: log})
	for _, t := range eng.AgentTools() {
		srv.AddTool(describe(t), callHandler(eng, t.Name, log))
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{Logger: log, MaxRequestBodyBytes: opts.MaxBodyBytes})
	if opts.Token == "" {
		return h
	}
	return requireToken(opts.Token, h)
}

// describe is the MCP tool of an engine tool.
func describe(t agentdoor.Tool) *sdk.Tool {
	destructive := t.Destructive
	open := false // the shop's own catalog, not the open world
	return &sdk.Tool{
		Name: t.Name, Description: t.Description, InputSchema: t.Schema,
		Annotations: &sdk.ToolAnnotations{
			Title:        strings.ReplaceAll(t.Name, "_", " "),
			ReadOnlyHint: t.ReadOnly, DestructiveHint: &destructive,
			IdempotentHint: t.Idempotent, OpenWorldHint: &open,
		},
	}
}

// callHandler runs a tools/call of the named tool in the session's
// conversation.
func callHandler(eng Engine, name string, log *slog.Logger) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		args := string(req.Params.Arguments)
		rep, err := eng.CallTool(ctx, turnOf(req), name, args)
		if err != nil {
			return refused(ctx, err, log), nil
		}
		return result(rep), nil
	}
}

// turnOf is the turn of a call: the session is the agent's chat and
// identity, chosen by the SDK (a random id the client cannot pick).
func turnOf(req *sdk.CallToolRequest) engine.Turn {
	id := "mcp-" + req.Session.ID()
	t := engine.Turn{Channel: agentdoor.Channel, ChatID: id, UserID: id}
	if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
		t.UserName = p.ClientInfo.Name
	}
	return t
}

// result is a tool's reply: its JSON as text and as structured content.
func result(rep agentdoor.Reply) *sdk.CallToolResult {
	res := &sdk.CallToolResult{
		Content: []sdk.Content{&sdk.TextContent{Text: rep.Content}},
		IsError: rep.IsError,
	}
	var obj map[string]any
	if json.Unmarshal([]byte(rep.Content), &obj) == nil && obj != nil {
		res.StructuredContent = obj
	} else {
		res.StructuredContent = map[string]any{"result": json.RawMessage(rep.Content)}
	}
	return res
}

// refused is a call the engine did not run, as a tool error the agent
// can act on.
func refused(ctx context.Context, err error, log *slog.Logger) *sdk.CallToolResult {
	msg := "The shop could not run this call; try again later."
	var rl *engine.RateLimitedError
	switch {
	case errors.As(err, &rl):
		msg = engine.PoliteMessage(err, "en")
	case errors.Is(err, engine.ErrUnavailable):
		msg = "The shop is unavailable right now; try again in a minute."
	case errors.Is(err, agentdoor.ErrNotOffered):
		msg = "This tool is not offered to agents."
	case errors.Is(err, engine.ErrBadTurn):
		msg = "This session cannot be served; start a new MCP session."
	default:
		log.ErrorContext(ctx, "mcp: tool call failed", "err", err)
	}
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: msg}},
		StructuredContent: map[string]any{"error": msg},
		IsError:           true,
	}
}

// requireToken answers 401 unless the request carries the bearer token.
func requireToken(token string, next http.Handler) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="mcp"`)
			http.Error(w, "a valid bearer token is required", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
