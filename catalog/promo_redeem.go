package catalog

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// PromoRedemption records an order that used a code: the per-customer
// count, and (unique per code and order) the guard against one order
// redeeming a code twice.
type PromoRedemption struct {
	bun.BaseModel `bun:"table:promo_redemptions"`

	ID          int64     `bun:"id,pk,autoincrement"`
	PromoCodeID int64     `bun:"promo_code_id,notnull"`
	OrderID     int64     `bun:"order_id,notnull"`
	CustomerID  int64     `bun:"customer_id,notnull"`
	Discount    int64     `bun:"discount,notnull"`
	CreatedAt   time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}

// takePromoUse redeems one use of code for the cart in the order's
// transaction and returns the promo and the discount. The use is a
// conditional UPDATE (uses < max_uses) returning the row: on
// Postgres it holds the code's row until the order commits, so
// concurrent orders take uses one at a time and a limit is never
// exceeded; on SQLite the transaction is the only writer. Because every
// redemption passes that row first, the per-customer count read after it
// sees every committed redemption. A code that does not apply is a
// *PromoError, and the caller's transaction rolls back.
func takePromoUse(ctx context.Context, tx bun.IDB, code string, cart *Cart, customerID int64, now time.Time) (*PromoCode, int64, error) {
	p := new(PromoCode)
	res, err := tx.NewUpdate().Model(p).
		Set("uses = uses + 1").
		Where("code = ?", code).Where("(max_uses = 0 OR uses < max_uses)").
		Returning("*").Exec(ctx)
	if err := expectOneRow(res, err, "promo %s", code); err != nil {
		if !errors.Is(err, ErrNotFound) {
			return nil, 0, err
		}
		return nil, 0, whyNoUse(ctx, tx, code, now)
	}
	p.Uses-- // quote as before this order's use
	q, err := quoteFor(ctx, tx, p, cart, customerID, now)
	if err != nil {
		return nil, 0, err
	}
	if q.Problem != nil {
		return nil, 0, q.Problem
	}
	return p, q.Discount, nil
}

// whyNoUse explains a code the conditional UPDATE found no use of.
func whyNoUse(ctx context.Context, tx bun.IDB, code string, now time.Time) error {
	p, err := GetPromo(ctx, tx, code)
	switch {
	case errors.Is(err, ErrNotFound):
		return promoErr(code, PromoUnknown, "there is no promo code %s", code)
	case err != nil:
		return err
	}
	if perr := p.usable(now, 0); perr != nil {
		return perr
	}
	return promoErr(p.Code, PromoExhausted, "promo code %s has been used up", p.Code)
}

// recordRedemption links the order to the code it used.
func recordRedemption(ctx context.Context, tx bun.IDB, p *PromoCode, o *Order) error {
	r := &PromoRedemption{PromoCodeID: p.ID, OrderID: o.ID, CustomerID: o.CustomerID, Discount: o.DiscountCents, CreatedAt: o.CreatedAt}
	if _, err := tx.NewInsert().Model(r).Returning("NULL").Exec(ctx); err != nil {
		if isUniqueViolation(err) {
			return fmt.Errorf("catalog: order %s already used promo %s: %w", o.Number, p.Code, ErrConflict)
		}
		return fmt.Errorf("catalog: record promo %s on order %s: %w", p.Code, o.Number, err)
	}
	return nil
}

// PromoRedemptions lists a code's redemptions, newest first (the admin
// panel shows who used it).
func PromoRedemptions(ctx context.Context, db bun.IDB, promoID int64, limit int) ([]PromoRedemption, error) {
	var rs []PromoRedemption
	err := db.NewSelect().Model(&rs).Where("promo_code_id = ?", promoID).
		Order("created_at DESC", "id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: redemptions of promo %d: %w", promoID, err)
	}
	return rs, nil
}

// releasePromoUse gives back the use a cancelled order took of its code,
// in the cancelling transaction: the redemption row is deleted and, only
// when one was, the code's count drops, so a cancel retried or run twice
// returns the use once. The customer's own count follows (it counts
// redemptions).
func releasePromoUse(ctx context.Context, tx bun.IDB, o *Order) error {
	if o.PromoCode == "" {
		return nil
	}
	var ids []int64
	err := tx.NewDelete().Model((*PromoRedemption)(nil)).Where("order_id = ?", o.ID).
		Returning("promo_code_id").Scan(ctx, &ids)
	if err != nil {
		return fmt.Errorf("catalog: release promo of order %s: %w", o.Number, err)
	}
	for _, id := range ids {
		if _, err := tx.NewUpdate().Model((*PromoCode)(nil)).Set("uses = uses - 1").
			Where("id = ? AND uses > 0", id).Exec(ctx); err != nil {
			return fmt.Errorf("catalog: release promo of order %s: %w", o.Number, err)
		}
	}
	return nil
}
