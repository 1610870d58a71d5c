package tools

import (
	"context"
	"encoding/json"
	"errors"
	"shopbot/engine/toolkit"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

type applyPromoCodeArgs struct {
	Code   string `json:"code"`
	Remove bool   `json:"remove"`
}

func applyPromoCodeTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "apply_promo_code",
		Description: "Apply the shopper's promo code to the cart, or remove it.",
		Schema: object(map[string]any{
			"code":   map[string]any{"type": "string", "maxLength": catalog.MaxPromoCodeLen},
			"remove": map[string]any{"type": "boolean"},
		}),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a applyPromoCodeArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			if a.Remove {
				return removePromoCode(ctx, d, s)
			}
			return applyPromoCode(ctx, d, s, a.Code)
		},
	}
}

// applyPromoCode puts code on the session's cart. A code that cannot
// apply is a ToolError naming the reason, and the cart keeps what it had;
// a code waiting for the cart (under its minimum) is kept with a note.
func applyPromoCode(ctx context.Context, d *Deps, s *session.Session, raw string) (toolkit.Result, error) {
	code, err := catalog.NormalizePromoCode(raw)
	if err != nil {
		return toolkit.Result{}, toolkit.Errorf("%s", strings.TrimPrefix(err.Error(), catalog.ErrInvalid.Error()+": "))
	}
	key := s.Effects().EffectKey("promo", code)
	_, err = d.apply(ctx, s, key, func(ctx context.Context, w toolkit.Writes) (*view.Notice, error) {
		_, err := w.ApplyPromo(ctx, s.Scope, s.Customer.ID, code, d.now())
		return nil, err
	})
	var pe *catalog.PromoError
	if errors.As(err, &pe) {
		return toolkit.Result{}, toolkit.Errorf("%s; the cart is unchanged", pe.Msg)
	}
	if err != nil {
		return toolkit.Result{}, err
	}
	if st := s.State.Checkout; st != nil && st.NoPromo == code {
		st.NoPromo, st.NoPromoReason = "", "" // the shopper tries it again
	}
	return promoCart(ctx, d, s, map[string]any{"applied": code})
}

func removePromoCode(ctx context.Context, d *Deps, s *session.Session) (toolkit.Result, error) {
	_, err := d.apply(ctx, s, s.Effects().EffectKey("promo-remove", ""), func(ctx context.Context, w toolkit.Writes) (*view.Notice, error) {
		return nil, w.RemovePromo(ctx, s.Scope)
	})
	if err != nil {
		return toolkit.Result{}, err
	}
	return promoCart(ctx, d, s, map[string]any{"removed": true})
}

// promoCart is the result of a promo change: the cart as it is now, its
// promo line (discount or note) included.
func promoCart(ctx context.Context, d *Deps, s *session.Session, data map[string]any) (toolkit.Result, error) {
	cart, err := d.carts().Cart(ctx, s.Scope)
	if err != nil {
		return toolkit.Result{}, err
	}
	cv := view.CartViewOf(cart, s.Currency)
	data["cart"] = toolkit.CartDataOf(cv)
	return cartChanged(s, data, cv), nil
}
