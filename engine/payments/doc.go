// Package payments checks and records the payments of orders, for every
// channel that takes them: the adapter says what its provider is about
// to charge or has charged, and only words the answer (Telegram answers
// a pre-checkout query, then reports the successful payment). Check
// re-checks the order's total and every product's price before a charge
// (a *Refusal says why not); Confirm marks the order paid, idempotent on
// the provider's charge id.
//
// Adapters reach it through the engine (engine.PreCheckout and
// engine.ConfirmPayment), which first refuses identifiers a turn would
// refuse.
package payments
