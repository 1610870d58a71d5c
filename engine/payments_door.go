package engine

import (
	"context"

	"shopbot/engine/payments"
	"shopbot/engine/view"
)

// PreCheckout decides whether a payment may be taken (payments.Check):
// nil to go ahead, a *payments.Refusal to refuse, or another error when
// it could not check (ErrUnavailable when the database could not serve).
// Identifiers a turn would refuse name no order: the payment is refused.
func (e *Engine) PreCheckout(ctx context.Context, p payments.Payment) error {
	if checkIDs("channel", p.Channel, "order number", p.OrderNumber) != nil {
		return &payments.Refusal{Reason: payments.RefuseNotPayable} // no order has such a number
	}
	return payments.Check(ctx, e.cfg.DB, p)
}

// ConfirmPayment records a completed charge (payments.Confirm): the order
// becomes paid, once per charge; first is false for a charge reported
// again. Identifiers a turn would refuse fail with ErrBadTurn.
func (e *Engine) ConfirmPayment(ctx context.Context, p payments.Payment) (ov *view.OrderView, first bool, err error) {
	if err := checkIDs("channel", p.Channel, "order number", p.OrderNumber, "charge id", p.ChargeID); err != nil {
		return nil, false, err
	}
	return payments.Confirm(ctx, e.cfg.DB, e.log, p)
}
