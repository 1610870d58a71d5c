package engine

import (
	"context"
	"encoding/json"
	"errors"
	"shopbot/engine/toolkit"
	"strconv"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/tools"
	"shopbot/engine/view"
)

// runAction handles a button press without any model: each action maps to
// one tool call (checkout goes through the planner's step-by-step flow).
// Every press ends in a non-empty answer (action_replies.go), whatever the
// client put in the action.
func (e *Engine) runAction(ctx context.Context, s *session.Session, sink Sink, rec *recorder) error {
	a := *s.Action
	ru := strings.HasPrefix(s.Locale, "ru")
	switch a.Kind {
	case view.ActCheckout:
		return e.answerOffline(ctx, s, sink, rec, choose(ru, "оформить заказ", "checkout"))
	case view.ActConfirm:
		return e.answerOffline(ctx, s, sink, rec, choose(ru, "да", "yes"))
	case view.ActDelivery:
		plan, err := e.planner.ChooseDelivery(ctx, s, a.Arg)
		return e.emitPlan(ctx, s, sink, rec, plan, err)
	case view.ActMore:
		plan, err := e.planner.More(ctx, s, a.Arg)
		return e.emitPlan(ctx, s, sink, rec, plan, err)
	}
	if needsSKU(a.Kind) && (a.SKU == "" || len(a.SKU) > tools.MaxSKUBytes) {
		return e.say(ctx, s, sink, rec, msgNoSuchProduct)
	}
	if a.Kind == view.ActOption {
		return e.runOption(ctx, s, sink, rec, a)
	}
	if a.Kind == view.ActCategory || (a.Kind == view.ActCategories && strings.TrimSpace(a.Arg) != "") {
		path, err := e.categoryPath(ctx, a.Arg)
		if errors.Is(err, errNoCategory) {
			return e.showCategories(ctx, s, sink, rec, msgNoSuchCategory)
		}
		if err != nil {
			return err
		}
		a.Arg = path
	}
	name, args, err := actionCall(a)
	if err != nil {
		return err
	}
	out := e.actionTool(ctx, s, rec, name, args)
	if out.err != nil && needsSKU(a.Kind) && errors.Is(out.err, catalog.ErrNotFound) {
		return e.say(ctx, s, sink, rec, msgNoSuchProduct)
	}
	if out.err != nil {
		msg := errorText(out.content)
		rec.assistant(msg)
		return sendText(ctx, sink, msg)
	}
	if a.Kind == view.ActCategory && len(out.res.Cards) == 0 {
		return e.showCategories(ctx, s, sink, rec, msgCategoryEmpty)
	}
	if len(out.res.Cards) > 0 {
		listing := s.State.Listing // the list the tool just remembered, if any (tools/paging.go)
		s.State.Remember(out.res.Cards)
		s.State.Listing = listing
	}
	if err := emitResult(ctx, sink, out.res); err != nil {
		return err
	}
	return e.sayAfter(ctx, s, sink, rec, a.Kind, out.res)
}

// actionTool runs and records the tool call of a button press.
func (e *Engine) actionTool(ctx context.Context, s *session.Session, rec *recorder, name, args string) toolOutcome {
	call := catalog.ToolCall{ID: "btn_" + strconv.Itoa(len(rec.msgs)), Name: name, Arguments: args}
	rec.toolCalls([]catalog.ToolCall{call})
	out := e.runTool(ctx, s, call)
	rec.tool(out)
	return out
}

// actionCall maps a button to a tool call.
func actionCall(a view.Action) (name, args string, err error) {
	skuArgs := toolkit.JSON(map[string]any{"sku": a.SKU})
	switch a.Kind {
	case view.ActAdd:
		return "add_to_cart", toolkit.JSON(map[string]any{"sku": a.SKU, "quantity": max(a.Qty, 1)}), nil
	case view.ActSet:
		return "update_cart_item", toolkit.JSON(map[string]any{"sku": a.SKU, "quantity": a.Qty}), nil
	case view.ActRemove:
		return "remove_from_cart", skuArgs, nil
	case view.ActDetails:
		return "get_product_details", skuArgs, nil
	case view.ActSimilar:
		return "get_similar_products", skuArgs, nil
	case view.ActCart:
		return "view_cart", "{}", nil
	case view.ActOrders:
		return "get_order_status", "{}", nil
	case view.ActCategories:
		return "get_categories", toolkit.JSON(map[string]any{"parent": a.Arg}), nil
	case view.ActNotify:
		return "notify_when_available", skuArgs, nil
	case view.ActCategory:
		// A page Telegram shows whole (it renders up to 6 cards), so the
		// More button skips nothing.
		return "search_products", toolkit.JSON(map[string]any{"category": a.Arg, "limit": 5}), nil
	}
	return "", "", toolkit.Errorf("unsupported button %q", a.Kind)
}

// errorText extracts the message of a tool error for the shopper.
func errorText(content string) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal([]byte(content), &e) == nil && e.Error != "" {
		return e.Error
	}
	return content
}

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

// sayAfter ends a press whose tool succeeded with actionReply. Where the
// result already shows something (cards, the cart, an order, buttons) and
// the press used to end silently, the words go only in EventDone, the
// whole answer for adapters that render one reply (web, Slack with nothing
// streamed): chat adapters render the result and need no second message.
func (e *Engine) sayAfter(ctx context.Context, s *session.Session, sink Sink, rec *recorder, kind view.ActionKind, res toolkit.Result) error {
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
func actionReply(kind view.ActionKind, res toolkit.Result) messageKey {
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
