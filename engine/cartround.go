package engine

import (
	"context"
	"shopbot/engine/toolkit"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/tools"
	"shopbot/engine/view"
)

// latestCart makes a round's cart view current. Tools of one round run
// concurrently: when several changed the cart, each read it right after
// its own write, possibly before another's. The cart is then read once
// more after all of them; the last cart-bearing result shows it (and the
// model reads it in each changed result), the earlier ones show none, so
// the reply ends with the cart as the round left it.
func (e *Engine) latestCart(ctx context.Context, s *session.Session, outs []toolOutcome) {
	last, n := -1, 0
	for i := range outs {
		if outs[i].err == nil && outs[i].res.Cart != nil {
			last, n = i, n+1
		}
	}
	if n < 2 {
		return
	}
	cart, err := catalog.GetCart(ctx, e.cfg.DB, s.Scope)
	if err != nil {
		return // each result keeps the cart it read
	}
	view := view.CartViewOf(cart, s.Currency)
	for i := range outs {
		out := &outs[i]
		if out.err != nil || out.res.Cart == nil {
			continue
		}
		if data, ok := out.res.Data.(map[string]any); ok {
			if _, has := data["cart"]; has {
				data["cart"] = tools.ModelCart(view)
				out.content, out.isErr = toolkit.ModelMessage(out.res, nil)
			}
		}
		out.res.Cart = nil
		if i == last {
			out.res.Cart = view
		}
	}
}
