package purchases

import (
	"time"

	"shopbot/engine/session"
	"shopbot/engine/toolkit"
)

// Deps are what the purchase tools read, asked for at each call (the
// engine's tools.Deps passes its methods: a test may swap a store after
// the tools are built).
type Deps struct {
	Orders   func() toolkit.Orders
	Products func() toolkit.Products
	// Now is the clock for a session without one.
	Now func() time.Time
}

// now is the turn's clock (fixed in tests).
func (d Deps) now(s *session.Session) time.Time {
	if s.Now.IsZero() && d.Now != nil {
		return d.Now().UTC()
	}
	return s.Now.UTC()
}
