package catalog

import "errors"

// The error vocabulary of the catalog. Functions wrap these with context;
// callers classify with errors.Is.
var (
	ErrNotFound          = errors.New("not found")
	ErrInvalid           = errors.New("invalid input")
	ErrOutOfStock        = errors.New("out of stock")
	ErrEmptyCart         = errors.New("cart is empty")
	ErrIdempotencyKey    = errors.New("idempotency key already used for a different cart")
	ErrInvalidTransition = errors.New("invalid order status change")
	ErrConflict          = errors.New("conflict")
	// ErrUnavailable marks an error of an unreachable or overloaded
	// database (connection refused or lost, closed pool, server shutting
	// down, SQLite busy): nothing was done, a retry later may succeed.
	// Unavailable (sqlerr.go) adds it to an error's chain.
	ErrUnavailable = errors.New("database unavailable")
)
