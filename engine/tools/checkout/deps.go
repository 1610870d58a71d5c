package checkout

import (
	"context"

	"shopbot/engine/session"
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// Deps are what the checkout tools read and write, the stores asked for
// at each call (engine/tools passes its methods).
type Deps struct {
	Carts      func() toolkit.Carts
	Orders     func() toolkit.Orders
	Deliveries func() toolkit.Deliveries
	// Apply makes one effect of the turn in its own transaction with its
	// journal row (toolkit.Effects.Apply).
	Apply func(ctx context.Context, s *session.Session, key string, write toolkit.EffectWrite) (bool, error)
	// DeliverPending delivers an effect's notice if no run of the turn
	// has claimed it yet (toolkit.Effects.DeliverPending).
	DeliverPending func(ctx context.Context, s *session.Session, key string)
	// PaymentLink is where the buyer of an order an agent placed pays;
	// nil, or an error, and the order awaits payment the merchant takes.
	PaymentLink func(ctx context.Context, o *view.OrderView) (string, error)
}
