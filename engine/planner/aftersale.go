package planner

import (
	"context"

	"shopbot/engine/planner/aftersale"
	"shopbot/engine/planner/intent"
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// After-sale self-service (cancel, a new address or items, returns) is
// package aftersale; afterSaleTurn is the turn as it sees it.
type afterSaleTurn struct{ t *plannerTurn }

func (a afterSaleTurn) Call(ctx context.Context, name string, args any) (toolkit.Result, error) {
	return a.t.call(ctx, name, args)
}
func (a afterSaleTurn) Fail(err error) error               { return a.t.fail(err) }
func (a afterSaleTurn) Say(key string, data any)           { a.t.say(replyKey(key), data) }
func (a afterSaleTurn) Button(key string, act view.Action) { a.t.button(replyKey(key), act) }
func (a afterSaleTurn) More()                              { a.t.moreButton() }
func (a afterSaleTurn) Ask(pending string)                 { a.t.s.State.Pending = pending }

// afterSale is an intent handler of package aftersale as the planner's.
func afterSale(h func(context.Context, aftersale.Turn, intent.Intent) error) func(*plannerTurn, context.Context, intent.Intent) error {
	return func(t *plannerTurn, ctx context.Context, in intent.Intent) error { return h(ctx, afterSaleTurn{t}, in) }
}
