package engine

import (
	"context"
	"errors"
	"shopbot/engine/toolkit"
	"time"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/tools"
	"shopbot/engine/variants"
	"shopbot/engine/view"
)

// runOption handles a variant picker's button (view.ActOption): the
// parent's SKU and the value indexes chosen so far, both from the client.
// A valid choice runs add_to_cart with those options, recorded like any
// button's call, which answers with the next step or adds the variant.
// A forged or stale button gets a polite answer and changes nothing.
func (e *Engine) runOption(ctx context.Context, s *session.Session, sink Sink, rec *recorder, a view.Action) error {
	p, err := catalog.GetProduct(ctx, e.cfg.DB, a.SKU)
	if errors.Is(err, catalog.ErrNotFound) {
		return e.say(ctx, s, sink, rec, msgNoSuchProduct)
	}
	if err != nil {
		return err
	}
	if !p.HasVariants() || !p.Active {
		return e.say(ctx, s, sink, rec, msgNoOptions)
	}
	vs, err := catalog.ListVariants(ctx, e.cfg.DB, p.ID)
	if err != nil {
		return err
	}
	opts, ok := variants.ChoiceOptions(p, vs, a.Arg)
	if !ok {
		return e.say(ctx, s, sink, rec, msgStaleChoice)
	}
	args := map[string]any{"sku": p.SKU, "quantity": max(a.Qty, 1)}
	if len(opts) > 0 {
		args["options"] = opts
	}
	out := e.actionTool(ctx, s, rec, "add_to_cart", toolkit.JSON(args))
	if out.err != nil {
		msg := errorText(out.content)
		rec.assistant(msg)
		return sendText(ctx, sink, msg)
	}
	if err := emitResult(ctx, sink, out.res); err != nil {
		return err
	}
	return e.sayAfter(ctx, s, sink, rec, view.ActOption, out.res)
}

// pickerReply is what a press that ended in add_to_cart's picker or
// out-of-stock answer says; ok is false for any other result.
func pickerReply(locale string, res toolkit.Result) (msg string, ok bool) {
	switch {
	case res.Cart != nil:
		return engineMessage(locale, msgAdded), true
	case tools.OutOfStock(res):
		return engineMessage(locale, msgOptionOut), true
	case res.Picker != nil:
		return res.Picker.Prompt, true
	}
	return "", false
}

// optionVocabTTL is how long the offline planner keeps the catalog's
// option names and values (catalog.OptionVocabCache) before reading them
// again: a new size shows up in the planner's words within it.
const optionVocabTTL = 30 * time.Second
