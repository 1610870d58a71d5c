package engine

import (
	"context"
	"errors"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/tools"
	"shopbot/engine/view"
)

// errNoCategory: a button names a category the shop does not have (a
// forged or stale button).
var errNoCategory = errors.New("engine: no such category")

// categoryPath resolves a category button's argument — a path or "#id"
// (see callbackDataMax) — to the category's path; errNoCategory when none
// matches exactly one category.
func (e *Engine) categoryPath(ctx context.Context, arg string) (string, error) {
	all, err := catalog.ListCategories(ctx, e.cfg.DB)
	if err != nil {
		return "", err
	}
	c, err := tools.ResolveCategoryArg(all, arg)
	if err != nil {
		return "", errNoCategory
	}
	return c.Path, nil
}

// showCategories answers a category button that leads nowhere: the reason,
// and the top-level categories as buttons.
func (e *Engine) showCategories(ctx context.Context, s *session.Session, sink Sink, rec *recorder, why messageKey) error {
	out := e.actionTool(ctx, s, rec, "get_categories", "{}")
	if out.err == nil {
		if err := emitResult(ctx, sink, out.res); err != nil {
			return err
		}
	}
	return e.say(ctx, s, sink, rec, why)
}

// say answers with one of the engine's messages and records it.
func (e *Engine) say(ctx context.Context, s *session.Session, sink Sink, rec *recorder, key messageKey) error {
	msg := engineMessage(s.Locale, key)
	rec.assistant(msg)
	return sendText(ctx, sink, msg)
}

// sayAfter ends a press whose tool succeeded with actionReply. Where the
// result already shows something (cards, the cart, an order, buttons) and
// the press used to end silently, the words go only in EventDone, the
// whole answer for adapters that render one reply (web, Slack with nothing
// streamed): chat adapters render the result and need no second message.
func (e *Engine) sayAfter(ctx context.Context, s *session.Session, sink Sink, rec *recorder, kind view.ActionKind, res tools.Result) error {
	if msg, ok := pickerReply(s.Locale, res); ok && (kind == view.ActAdd || kind == view.ActOption) {
		rec.assistant(msg)
		if res.Cart == nil && !tools.OutOfStock(res) {
			// the picker carries its question; the words go only in EventDone
			return sink.Send(ctx, Event{Kind: EventDone, Text: msg})
		}
		return sendText(ctx, sink, msg)
	}
	key := actionReply(kind, res)
	shown := len(res.Cards) > 0 || res.Cart != nil || res.Order != nil || len(res.Buttons) > 0
	if !shown || kind == view.ActAdd || kind == view.ActSet || kind == view.ActRemove {
		return e.say(ctx, s, sink, rec, key)
	}
	msg := engineMessage(s.Locale, key)
	rec.assistant(msg)
	return sink.Send(ctx, Event{Kind: EventDone, Text: msg})
}

// needsSKU reports whether an action is about one product.
func needsSKU(kind view.ActionKind) bool {
	switch kind {
	case view.ActAdd, view.ActSet, view.ActRemove, view.ActDetails, view.ActSimilar, view.ActNotify, view.ActOption:
		return true
	}
	return false
}

// actionReply is what a button press says once its tool succeeded, so
// that no press is answered with nothing.
func actionReply(kind view.ActionKind, res tools.Result) messageKey {
	switch kind {
	case view.ActAdd:
		return msgAdded
	case view.ActNotify:
		return msgAlertSet
	case view.ActSet, view.ActRemove:
		return msgCartUpdated
	case view.ActCart:
		if res.Cart == nil || len(res.Cart.Lines) == 0 {
			return msgCartEmpty
		}
		return msgYourCart
	case view.ActOrders:
		if res.Order == nil {
			return msgNoOrders
		}
		return msgLatestOrder
	case view.ActCategories:
		if len(res.Buttons) == 0 {
			return msgNoSubcategories
		}
		return msgPickCategory
	case view.ActSimilar:
		if len(res.Cards) == 0 {
			return msgNoSimilar
		}
	}
	return msgEmptyAnswer // "Here is what I found."
}
