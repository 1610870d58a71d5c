package engine

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/planner"
	"shopbot/engine/session"
	"shopbot/engine/tools"
	"shopbot/engine/view"
)

// runPlanner answers with the offline planner: no model, same tools.
func (e *Engine) runPlanner(ctx context.Context, s *session.Session, sink Sink, rec *recorder) error {
	return e.answerOffline(ctx, s, sink, rec, s.Text)
}

func (e *Engine) answerOffline(ctx context.Context, s *session.Session, sink Sink, rec *recorder, text string) error {
	plan, err := e.planner.Answer(ctx, s, text)
	return e.emitPlan(ctx, s, sink, rec, plan, err)
}

// emitPlan records the planner's calls and sends its answer.
func (e *Engine) emitPlan(ctx context.Context, s *session.Session, sink Sink, rec *recorder, plan planner.Plan, err error) error {
	if err != nil {
		return err
	}
	if len(plan.Calls) > 0 {
		calls := make([]catalog.ToolCall, len(plan.Calls))
		for i, c := range plan.Calls {
			calls[i] = catalog.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Args}
		}
		rec.toolCalls(calls)
		for i, c := range plan.Calls {
			rec.tool(toolOutcome{call: calls[i], content: c.Content, isErr: c.IsErr})
			status := "ok"
			if c.IsErr {
				status = "error"
			}
			e.metrics.toolCalls.WithLabelValues(c.Name, status).Inc()
		}
	}
	for _, res := range plan.Results {
		if len(plan.Buttons) > 0 {
			res.Buttons = nil // the planner chose the buttons for this reply
		}
		if err := emitResult(ctx, sink, res); err != nil {
			return err
		}
	}
	if len(plan.Buttons) > 0 {
		if err := sink.Send(ctx, Event{Kind: EventButtons, Buttons: plan.Buttons}); err != nil {
			return err
		}
	}
	rec.assistant(plan.Text)
	return sendText(ctx, sink, plan.Text)
}

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
	skuArgs := tools.JSON(map[string]any{"sku": a.SKU})
	switch a.Kind {
	case view.ActAdd:
		return "add_to_cart", tools.JSON(map[string]any{"sku": a.SKU, "quantity": max(a.Qty, 1)}), nil
	case view.ActSet:
		return "update_cart_item", tools.JSON(map[string]any{"sku": a.SKU, "quantity": a.Qty}), nil
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
		return "get_categories", tools.JSON(map[string]any{"parent": a.Arg}), nil
	case view.ActNotify:
		return "notify_when_available", skuArgs, nil
	case view.ActCategory:
		// A page Telegram shows whole (it renders up to 6 cards), so the
		// More button skips nothing.
		return "search_products", tools.JSON(map[string]any{"category": a.Arg, "limit": 5}), nil
	}
	return "", "", tools.Errorf("unsupported button %q", a.Kind)
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

func choose(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}
