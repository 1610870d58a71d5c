package payments

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/view"

	"github.com/uptrace/bun"
)

// Payment is a charge for an order as the channel's payment provider
// reports it. Amount is in minor units of Currency.
type Payment struct {
	Channel     string // the channel the order is paid in (and was placed in)
	OrderNumber string
	Amount      int64
	Currency    string
	// ChargeID is the provider's id of a completed charge (ConfirmPayment
	// only): the same charge reported twice is recorded once.
	ChargeID string
}

// RefusalReason says why a payment must not go ahead; the adapter words
// it in the shopper's language.
type RefusalReason string

const (
	// RefuseNotPayable: the order is unknown, cancelled, already paid,
	// or was placed in another channel.
	RefuseNotPayable RefusalReason = "not_payable"
	// RefuseTotalChanged: the amount or currency is not the order's.
	RefuseTotalChanged RefusalReason = "total_changed"
	// RefuseProductGone: a product of the order is no longer sold
	// (Refusal.Title names it).
	RefuseProductGone RefusalReason = "product_gone"
	// RefusePriceChanged: a product's price differs from the price in
	// the order (Refusal.Title names it).
	RefusePriceChanged RefusalReason = "price_changed"
)

// Refusal is PreCheckout's answer to a payment that must not go ahead.
type Refusal struct {
	Reason RefusalReason
	Title  string // the product, for RefuseProductGone and RefusePriceChanged
}

func (r *Refusal) Error() string {
	if r.Title != "" {
		return fmt.Sprintf("engine: payment refused: %s: %s", r.Reason, r.Title)
	}
	return fmt.Sprintf("engine: payment refused: %s", r.Reason)
}

// Check decides whether a payment may be taken: the order awaits
// payment in p.Channel, p's amount and currency are its total, and every
// product in it is still sold at the price the order holds. It returns
// nil to go ahead, a *Refusal to refuse, or another error when it could
// not check (the shopper may try again; catalog.ErrUnavailable in the
// chain when the database could not serve).
func Check(ctx context.Context, db bun.IDB, p Payment) error {
	o, err := catalog.GetOrder(ctx, db, p.OrderNumber)
	switch {
	case errors.Is(err, catalog.ErrNotFound):
		return &Refusal{Reason: RefuseNotPayable}
	case err != nil:
		return fmt.Errorf("engine: pre-checkout of order %s: %w", p.OrderNumber, catalog.Unavailable(err))
	case o.Status != catalog.StatusNew || o.PaymentChargeID != nil || o.Channel != p.Channel:
		return &Refusal{Reason: RefuseNotPayable}
	case p.Amount != o.Total || !strings.EqualFold(p.Currency, o.Currency):
		return &Refusal{Reason: RefuseTotalChanged}
	}
	return checkPrices(ctx, db, o)
}

// checkPrices refuses an order whose products are no longer sold, or no
// longer at the price the order holds, naming the first such line.
func checkPrices(ctx context.Context, db bun.IDB, o *catalog.Order) error {
	skus := make([]string, len(o.Items))
	for i, it := range o.Items {
		skus[i] = it.SKU
	}
	ps, err := catalog.GetProducts(ctx, db, skus)
	if err != nil {
		return fmt.Errorf("engine: pre-checkout of order %s: %w", o.Number, catalog.Unavailable(err))
	}
	bySKU := make(map[string]*catalog.Product, len(ps))
	for i := range ps {
		bySKU[ps[i].SKU] = &ps[i]
	}
	for _, it := range o.Items {
		p := bySKU[it.SKU]
		switch {
		case p == nil || !p.Active:
			return &Refusal{Reason: RefuseProductGone, Title: it.Title}
		case p.Price != it.UnitPrice:
			return &Refusal{Reason: RefusePriceChanged, Title: it.Title}
		}
	}
	return nil
}

// Confirm records a completed charge: the order becomes paid with
// p.ChargeID. It is idempotent on the charge: the same charge reported
// again (a redelivered update, two replicas at once) changes nothing and
// returns first=false, so the adapter thanks the shopper once. Another
// charge for a paid order fails with catalog's ErrConflict in the chain.
// An amount that is not the order's total is still recorded — the money
// was taken — and logged on log for the merchant.
func Confirm(ctx context.Context, db bun.IDB, log *slog.Logger, p Payment) (ov *view.OrderView, first bool, err error) {
	o, first, err := catalog.MarkOrderPaid(ctx, db, p.OrderNumber, p.Channel, p.ChargeID)
	if err != nil {
		return nil, false, fmt.Errorf("engine: confirm payment of order %s: %w", p.OrderNumber, catalog.Unavailable(err))
	}
	if first && (p.Amount != o.Total || !strings.EqualFold(p.Currency, o.Currency)) {
		log.ErrorContext(ctx, "payment differs from the order total", "order", o.Number, "channel", p.Channel,
			"paid", p.Amount, "paid_currency", p.Currency, "total", o.Total, "currency", o.Currency)
	}
	return view.OrderViewOf(o), first, nil
}
