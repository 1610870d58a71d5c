package logctx

import (
	"context"
	"sync/atomic"
)

// requestKey and turnKey are the context keys of this package.
type (
	requestKey struct{}
	turnKey    struct{}
)

// WithRequest returns ctx carrying the HTTP request's id.
func WithRequest(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestKey{}, id)
}

// RequestID is the request id ctx carries, "" outside a request.
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestKey{}).(string)
	return id
}

// Turn is the engine turn a context belongs to. Its conversation is known
// only once the turn has opened it, after the turn's first log lines may
// have been written; records logged later with the same ctx carry it.
type Turn struct{ conversation atomic.Int64 }

// SetConversation names the turn's conversation.
func (t *Turn) SetConversation(id int64) { t.conversation.Store(id) }

// StartTurn returns ctx carrying a new turn, and the turn.
func StartTurn(ctx context.Context) (context.Context, *Turn) {
	t := new(Turn)
	return context.WithValue(ctx, turnKey{}, t), t
}

// ConversationID is the conversation of the turn ctx belongs to; 0
// outside a turn or before the turn has opened its conversation.
func ConversationID(ctx context.Context) int64 {
	t, _ := ctx.Value(turnKey{}).(*Turn)
	if t == nil {
		return 0
	}
	return t.conversation.Load()
}
