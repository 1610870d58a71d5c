package catalog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// ErrPromo classifies a promo code that gives no discount; the error is a
// *PromoError saying why.
var ErrPromo = errors.New("promo code does not apply")

// PromoReason says why a code gives no discount.
type PromoReason string

const (
	PromoUnknown       PromoReason = "unknown"
	PromoDisabled      PromoReason = "disabled"
	PromoNotStarted    PromoReason = "not_started"
	PromoExpired       PromoReason = "expired"
	PromoExhausted     PromoReason = "exhausted"
	PromoCustomerLimit PromoReason = "customer_limit"
	PromoUnderMinimum  PromoReason = "under_minimum"
	PromoWrongCategory PromoReason = "wrong_category"
	PromoCurrency      PromoReason = "currency"
)

// CartDependent reports whether the cart can fix the reason (adding
// products, or products of the code's categories): a cart keeps such a
// code, waiting; a code failing for any other reason is not kept.
func (r PromoReason) CartDependent() bool {
	return r == PromoUnderMinimum || r == PromoWrongCategory || r == PromoCurrency
}

// PromoError is a code that gives no discount, with a message a shopper
// can read.
type PromoError struct {
	Code   string
	Reason PromoReason
	Msg    string
}

func (e *PromoError) Error() string        { return e.Msg }
func (e *PromoError) Is(target error) bool { return target == ErrPromo }

func promoErr(code string, r PromoReason, format string, args ...any) *PromoError {
	return &PromoError{Code: code, Reason: r, Msg: fmt.Sprintf(format, args...)}
}

// PromoQuote is what a code does for a cart now: Discount in minor units
// of Currency, or Problem when it gives none.
type PromoQuote struct {
	Code     string
	Discount int64
	Currency string
	Problem  *PromoError
}

// usable checks the rules of the code itself (the cart aside): active,
// within its dates, uses left, and uses left for a customer who redeemed
// it customerUses times.
func (p *PromoCode) usable(now time.Time, customerUses int) *PromoError {
	switch {
	case !p.Active:
		return promoErr(p.Code, PromoDisabled, "promo code %s is no longer active", p.Code)
	case p.StartsAt != nil && now.Before(*p.StartsAt):
		return promoErr(p.Code, PromoNotStarted, "promo code %s is valid from %s", p.Code, p.StartsAt.UTC().Format("2006-01-02 15:04 MST"))
	case p.EndsAt != nil && !now.Before(*p.EndsAt):
		return promoErr(p.Code, PromoExpired, "promo code %s expired on %s", p.Code, p.EndsAt.UTC().Format("2006-01-02 15:04 MST"))
	case p.MaxUses > 0 && p.Uses >= p.MaxUses:
		return promoErr(p.Code, PromoExhausted, "promo code %s has been used up", p.Code)
	case p.PerCustomer > 0 && customerUses >= p.PerCustomer:
		return promoErr(p.Code, PromoCustomerLimit, "promo code %s can be used %d time(s) per customer, and you have used it", p.Code, p.PerCustomer)
	}
	return nil
}

// QuotePromo applies p to the cart at now for a customer who redeemed it
// customerUses times. all is the category tree (ListCategories), needed
// only when the code is restricted to categories: a restriction covers
// subcategories. The discount is taken off the eligible lines: a percent
// of them, or a fixed amount capped at them; the minimum is on them too.
func QuotePromo(p *PromoCode, cart *Cart, all []Category, customerUses int, now time.Time) PromoQuote {
	q := PromoQuote{Code: p.Code, Currency: p.Currency}
	if q.Problem = p.usable(now, customerUses); q.Problem != nil {
		return q
	}
	q.Problem = p.cartProblem(cart, all)
	if q.Problem == nil {
		q.Discount = p.discountOf(eligibleSubtotal(cart, p.eligibleCategories(all)))
	}
	return q
}

func (p *PromoCode) cartProblem(cart *Cart, all []Category) *PromoError {
	subtotal, currency := cart.Total()
	if currency != "" && currency != p.Currency {
		return promoErr(p.Code, PromoCurrency, "promo code %s is for %s prices", p.Code, p.Currency)
	}
	eligible := p.eligibleCategories(all)
	sum := eligibleSubtotal(cart, eligible)
	if eligible != nil && sum == 0 && subtotal > 0 {
		return promoErr(p.Code, PromoWrongCategory, "promo code %s applies only to %s, and the cart has none", p.Code, p.categoryNames(all))
	}
	if sum < p.MinSubtotal || sum == 0 {
		need := max(p.MinSubtotal, 1)
		return promoErr(p.Code, PromoUnderMinimum, "promo code %s needs %s of eligible products in the cart; add %s more",
			p.Code, FormatPrice(need, p.Currency), FormatPrice(need-sum, p.Currency))
	}
	return nil
}

func (p *PromoCode) discountOf(eligible int64) int64 {
	if p.Kind == PromoPercent {
		return eligible * p.Value / 100
	}
	return min(p.Value, eligible)
}

// eligibleCategories is the set of categories the code covers (its own
// and their subcategories), or nil when it covers every product.
func (p *PromoCode) eligibleCategories(all []Category) map[int64]bool {
	if len(p.CategoryIDs) == 0 {
		return nil
	}
	set := map[int64]bool{}
	for _, r := range all {
		if !slices.Contains(p.CategoryIDs, r.ID) {
			continue
		}
		for _, c := range all {
			if c.Path == r.Path || strings.HasPrefix(c.Path, r.Path+PathSeparator) {
				set[c.ID] = true
			}
		}
	}
	return set
}

func (p *PromoCode) categoryNames(all []Category) string {
	var names []string
	for _, c := range all {
		if slices.Contains(p.CategoryIDs, c.ID) {
			names = append(names, c.Path)
		}
	}
	if len(names) == 0 {
		return "categories no longer sold"
	}
	return strings.Join(names, ", ")
}

// eligibleSubtotal sums the lines in the eligible categories (every line
// when eligible is nil).
func eligibleSubtotal(cart *Cart, eligible map[int64]bool) int64 {
	var sum int64
	for _, it := range cart.Items {
		p := it.Product
		if p == nil || eligible != nil && (p.CategoryID == nil || !eligible[*p.CategoryID]) {
			continue
		}
		sum += p.Price * int64(it.Quantity)
	}
	return sum
}

// quoteCartPromo quotes the cart's code for customerID (0 leaves the
// per-customer limit to checkout, as for a shared cart).
func quoteCartPromo(ctx context.Context, db bun.IDB, cart *Cart, customerID int64, now time.Time) (*PromoQuote, error) {
	if cart.PromoCode == "" {
		return nil, nil
	}
	p, err := GetPromo(ctx, db, cart.PromoCode)
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrInvalid) {
		return &PromoQuote{Code: cart.PromoCode, Problem: promoErr(cart.PromoCode, PromoUnknown, "there is no promo code %s", cart.PromoCode)}, nil
	}
	if err != nil {
		return nil, err
	}
	q, err := quoteFor(ctx, db, p, cart, customerID, now)
	return &q, err
}

func quoteFor(ctx context.Context, db bun.IDB, p *PromoCode, cart *Cart, customerID int64, now time.Time) (PromoQuote, error) {
	var all []Category
	var err error
	if len(p.CategoryIDs) > 0 {
		if all, err = ListCategories(ctx, db); err != nil {
			return PromoQuote{}, err
		}
	}
	uses := 0
	if customerID > 0 {
		if uses, err = customerPromoUses(ctx, db, p.ID, customerID); err != nil {
			return PromoQuote{}, err
		}
	}
	return QuotePromo(p, cart, all, uses, now), nil
}

// ApplyCartPromo puts code on the scope's cart and returns what it does
// for the cart now. An unknown code, or one that cannot apply to any cart
// now (disabled, outside its dates, used up, used up by customerID), is a
// *PromoError and changes nothing; a code the cart does not qualify for
// yet (under its minimum, none of its categories) is kept, with the
// quote's Problem saying what is missing. Malformed input is ErrInvalid.
func ApplyCartPromo(ctx context.Context, db bun.IDB, scope CartScope, customerID int64, code string, now time.Time) (*PromoQuote, error) {
	if err := scope.validate(); err != nil {
		return nil, fmt.Errorf("catalog: apply promo: %w", err)
	}
	p, err := GetPromo(ctx, db, code)
	if errors.Is(err, ErrNotFound) {
		norm, _ := NormalizePromoCode(code)
		return nil, promoErr(norm, PromoUnknown, "there is no promo code %s", norm)
	}
	if err != nil {
		return nil, err
	}
	cart, err := GetCart(ctx, db, scope)
	if err != nil {
		return nil, err
	}
	q, err := quoteFor(ctx, db, p, cart, customerID, now)
	if err != nil {
		return nil, err
	}
	if q.Problem != nil && !q.Problem.Reason.CartDependent() {
		return nil, q.Problem
	}
	if err := setCartPromo(ctx, db, scope, p.Code); err != nil {
		return nil, err
	}
	return &q, nil
}

// RemoveCartPromo takes the code off the scope's cart; a cart without one
// is left as it is.
func RemoveCartPromo(ctx context.Context, db bun.IDB, scope CartScope) error {
	if err := scope.validate(); err != nil {
		return fmt.Errorf("catalog: remove promo: %w", err)
	}
	_, err := db.NewUpdate().Model((*Cart)(nil)).Set("promo_code = ''").Where("scope = ?", scope.Key()).Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: remove promo from cart %s: %w", scope.Key(), err)
	}
	return nil
}

func setCartPromo(ctx context.Context, db bun.IDB, scope CartScope, code string) error {
	if _, err := ensureCart(ctx, db, scope); err != nil {
		return err
	}
	_, err := db.NewUpdate().Model((*Cart)(nil)).Set("promo_code = ?", code).Where("scope = ?", scope.Key()).Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: set promo on cart %s: %w", scope.Key(), err)
	}
	return nil
}

func customerPromoUses(ctx context.Context, db bun.IDB, promoID, customerID int64) (int, error) {
	n, err := db.NewSelect().Model((*PromoRedemption)(nil)).
		Where("promo_code_id = ?", promoID).Where("customer_id = ?", customerID).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: count uses of promo %d: %w", promoID, err)
	}
	return int(n), nil
}
