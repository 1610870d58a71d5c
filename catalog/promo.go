package catalog

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// PromoKind says how a code discounts: a percent of the eligible subtotal,
// or a fixed amount off it.
type PromoKind string

const (
	PromoPercent PromoKind = "percent"
	PromoFixed   PromoKind = "fixed"
)

// Promo code limits. Codes are short, upper-case Latin letters, digits, -
// and _, so a shopper can type them and a look-alike (Cyrillic С for C)
// cannot pass for another.
const (
	MinPromoCodeLen = 3
	MaxPromoCodeLen = 32
)

// PromoCode is a code the merchant hands out. MaxUses and PerCustomer of 0
// mean no limit; CategoryIDs empty means every product; StartsAt and
// EndsAt nil mean open-ended. Uses counts the orders that redeemed it.
type PromoCode struct {
	bun.BaseModel `bun:"table:promo_codes"`

	ID          int64      `bun:"id,pk,autoincrement"`
	Code        string     `bun:"code,notnull"`
	Kind        PromoKind  `bun:"kind,notnull"`
	Value       int64      `bun:"value,notnull"`
	Currency    string     `bun:"currency,notnull"`
	MinSubtotal int64      `bun:"min_subtotal,notnull"`
	StartsAt    *time.Time `bun:"starts_at"`
	EndsAt      *time.Time `bun:"ends_at"`
	MaxUses     int        `bun:"max_uses,notnull"`
	PerCustomer int        `bun:"per_customer,notnull"`
	CategoryIDs []int64    `bun:"category_ids,notnull"`
	Uses        int        `bun:"uses,notnull"`
	Active      bool       `bun:"active,notnull"`
	CreatedAt   time.Time  `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt   time.Time  `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
	// Demo is the demo column (a row the demo shop created, demo_state.go)
	// where a query reads every column; bun never writes it: MarkDemo does.
	Demo bool `bun:"demo,scanonly"`
}

// NormalizePromoCode trims and upper-cases a code a shopper or merchant
// typed, and rejects anything that cannot be a code (too short or long,
// other characters) with ErrInvalid, before it reaches a query.
func NormalizePromoCode(raw string) (string, error) {
	if len(raw) > 4*MaxPromoCodeLen {
		return "", fmt.Errorf("%w: a promo code has at most %d characters", ErrInvalid, MaxPromoCodeLen)
	}
	code := strings.ToUpper(strings.TrimSpace(raw))
	if n := len(code); n < MinPromoCodeLen || n > MaxPromoCodeLen {
		return "", fmt.Errorf("%w: a promo code has %d to %d characters", ErrInvalid, MinPromoCodeLen, MaxPromoCodeLen)
	}
	for _, r := range code {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return "", fmt.Errorf("%w: a promo code has only Latin letters, digits, - and _", ErrInvalid)
		}
	}
	return code, nil
}

// Validate normalizes the code and checks the rules a merchant sets.
func (p *PromoCode) Validate() error {
	code, err := NormalizePromoCode(p.Code)
	if err != nil {
		return err
	}
	p.Code = code
	cur, err := NormalizeCurrency(p.Currency)
	if err != nil {
		return err
	}
	p.Currency = cur
	switch {
	case p.Kind == PromoPercent && (p.Value < 1 || p.Value > 100):
		return fmt.Errorf("%w: a percent discount is 1 to 100", ErrInvalid)
	case p.Kind == PromoFixed && (p.Value < 1 || p.Value > maxAmount):
		return fmt.Errorf("%w: a fixed discount is a positive amount", ErrInvalid)
	case p.Kind != PromoPercent && p.Kind != PromoFixed:
		return fmt.Errorf("%w: kind is percent or fixed", ErrInvalid)
	case p.MinSubtotal < 0 || p.MinSubtotal > maxAmount:
		return fmt.Errorf("%w: minimum subtotal out of range", ErrInvalid)
	case p.MaxUses < 0 || p.PerCustomer < 0:
		return fmt.Errorf("%w: use limits are 0 (none) or more", ErrInvalid)
	case p.StartsAt != nil && p.EndsAt != nil && !p.EndsAt.After(*p.StartsAt):
		return fmt.Errorf("%w: valid until must be after valid from", ErrInvalid)
	case len(p.CategoryIDs) > 100:
		return fmt.Errorf("%w: at most 100 categories", ErrInvalid)
	}
	if p.CategoryIDs == nil {
		p.CategoryIDs = []int64{}
	}
	return nil
}

// CreatePromo stores a new code; a code that exists is ErrConflict.
func CreatePromo(ctx context.Context, db bun.IDB, p *PromoCode, now time.Time) error {
	if err := p.Validate(); err != nil {
		return fmt.Errorf("catalog: create promo: %w", err)
	}
	p.ID, p.Uses, p.CreatedAt, p.UpdatedAt = 0, 0, now.UTC(), now.UTC()
	if _, err := db.NewInsert().Model(p).Returning("id").Exec(ctx); err != nil {
		if isUniqueViolation(err) {
			return fmt.Errorf("catalog: promo code %s already exists: %w", p.Code, ErrConflict)
		}
		return fmt.Errorf("catalog: create promo %s: %w", p.Code, err)
	}
	return nil
}

// UpdatePromo saves the merchant's changes to a code (all but its use
// count). The update is conditional on the use count, so a limit can
// never be lowered under the uses already made, even by an order
// committing meanwhile: that is ErrInvalid, and nothing changes.
func UpdatePromo(ctx context.Context, db bun.IDB, p *PromoCode, now time.Time) error {
	if err := p.Validate(); err != nil {
		return fmt.Errorf("catalog: update promo: %w", err)
	}
	p.UpdatedAt = now.UTC()
	q := db.NewUpdate().Model(p).
		Column("code", "kind", "value", "currency", "min_subtotal", "starts_at", "ends_at",
			"max_uses", "per_customer", "category_ids", "active", "updated_at").
		WherePK()
	if p.MaxUses > 0 {
		q = q.Where("uses <= ?", p.MaxUses)
	}
	res, err := q.Exec(ctx)
	if err != nil && isUniqueViolation(err) {
		return fmt.Errorf("catalog: promo code %s already exists: %w", p.Code, ErrConflict)
	}
	if err := expectOneRow(res, err, "promo %d", p.ID); err != nil {
		cur, gerr := GetPromoByID(ctx, db, p.ID)
		if gerr != nil {
			return gerr
		}
		return fmt.Errorf("catalog: promo %s was used %d times: %w: the use limit cannot be lower", cur.Code, cur.Uses, ErrInvalid)
	}
	return nil
}

// SetPromoActive enables or disables a code; a disabled code applies to no
// cart and no order.
func SetPromoActive(ctx context.Context, db bun.IDB, id int64, active bool, now time.Time) error {
	res, err := db.NewUpdate().Model((*PromoCode)(nil)).
		Set("active = ?", active).Set("updated_at = ?", now.UTC()).Where("id = ?", id).Exec(ctx)
	return expectOneRow(res, err, "promo %d", id)
}

// GetPromo loads a code by its text (normalized first).
func GetPromo(ctx context.Context, db bun.IDB, code string) (*PromoCode, error) {
	norm, err := NormalizePromoCode(code)
	if err != nil {
		return nil, fmt.Errorf("catalog: promo: %w", err)
	}
	p := new(PromoCode)
	if err := db.NewSelect().Model(p).Where("code = ?", norm).Scan(ctx); err != nil {
		return nil, notFound(err, "promo code %s", norm)
	}
	return p, nil
}

// GetPromoByID loads a code by id (the admin panel's handle).
func GetPromoByID(ctx context.Context, db bun.IDB, id int64) (*PromoCode, error) {
	p := new(PromoCode)
	if err := db.NewSelect().Model(p).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err, "promo %d", id)
	}
	return p, nil
}

// ListPromos returns every code, newest first.
func ListPromos(ctx context.Context, db bun.IDB) ([]PromoCode, error) {
	var ps []PromoCode
	if err := db.NewSelect().Model(&ps).Order("created_at DESC", "id DESC").Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: list promos: %w", err)
	}
	return ps, nil
}
