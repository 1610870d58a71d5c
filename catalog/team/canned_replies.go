package team

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// CannedReply is a saved answer the team types as "/shortcut" in a reply
// box; its body may hold {name}, {order} and {cart}, filled from the
// conversation's shopper when it is used.
type CannedReply struct {
	bun.BaseModel `bun:"table:canned_replies"`

	ID        int64     `bun:"id,pk,autoincrement"`
	Shortcut  string    `bun:"shortcut,notnull"`
	Body      string    `bun:"body,notnull"`
	UpdatedAt time.Time `bun:"updated_at,notnull"`
}

// NormalizeShortcut is a shortcut as stored: without the leading '/',
// lower case, 1–32 letters, digits, '-' or '_'; anything else is
// ErrInvalid.
func NormalizeShortcut(s string) (string, error) {
	s = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(s), "/"))
	bad := strings.IndexFunc(s, func(r rune) bool { return !(r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) })
	if s == "" || utf8.RuneCountInString(s) > 32 || bad >= 0 {
		return "", fmt.Errorf("catalog: shortcut %q: %w: 1–32 letters, digits, - or _", s, catalog.ErrInvalid)
	}
	return s, nil
}

// SaveCannedReply creates the reply of a shortcut or replaces its body.
func SaveCannedReply(ctx context.Context, db bun.IDB, shortcut, body string, now time.Time) (*CannedReply, error) {
	sc, err := NormalizeShortcut(shortcut)
	if err != nil {
		return nil, err
	}
	body = strings.TrimSpace(body)
	if body == "" || utf8.RuneCountInString(body) > 2000 {
		return nil, fmt.Errorf("catalog: canned reply /%s: %w: the text must be 1–2,000 characters", sc, catalog.ErrInvalid)
	}
	c := &CannedReply{Shortcut: sc, Body: body, UpdatedAt: now.UTC()}
	_, err = db.NewInsert().Model(c).On("CONFLICT (shortcut) DO UPDATE").Set("body = EXCLUDED.body").
		Set("updated_at = EXCLUDED.updated_at").Returning("id").Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: save canned reply /%s: %w", sc, err)
	}
	return c, nil
}

// ListCannedReplies returns every canned reply by shortcut.
func ListCannedReplies(ctx context.Context, db bun.IDB) ([]CannedReply, error) {
	var out []CannedReply
	if err := db.NewSelect().Model(&out).Order("shortcut").Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: list canned replies: %w", err)
	}
	return out, nil
}

// FindCannedReply loads the reply of a shortcut ("/thanks" or "thanks");
// ErrNotFound when there is none.
func FindCannedReply(ctx context.Context, db bun.IDB, shortcut string) (*CannedReply, error) {
	sc, err := NormalizeShortcut(shortcut)
	if err != nil {
		return nil, fmt.Errorf("catalog: canned reply: %w", catalog.ErrNotFound)
	}
	c := new(CannedReply)
	err = db.NewSelect().Model(c).Where("shortcut = ?", sc).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("catalog: canned reply /%s: %w", sc, catalog.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("catalog: canned reply /%s: %w", sc, err)
	}
	return c, nil
}

// DeleteCannedReply removes a canned reply; ErrNotFound when there is none.
func DeleteCannedReply(ctx context.Context, db bun.IDB, id int64) error {
	res, err := db.NewDelete().Model((*CannedReply)(nil)).Where("id = ?", id).Exec(ctx)
	return catalog.ExpectOneRow(res, err, "canned reply %d", id)
}

// CannedValues are what a canned reply's {name}, {order} and {cart} stand
// for in one conversation.
type CannedValues struct {
	Name, Order, Cart string
}

// CannedValuesFor reads a customer's name, newest order number and
// current cart ("2 × Trail shoe, 1 × Socks"); a part that is missing is
// empty.
func CannedValuesFor(ctx context.Context, db bun.IDB, customerID int64) (CannedValues, error) {
	var v CannedValues
	c, err := catalog.GetCustomer(ctx, db, customerID)
	if err != nil {
		return v, err
	}
	v.Name = c.DisplayName
	err = db.NewSelect().Model((*catalog.Order)(nil)).Column("number").Where("customer_id = ?", customerID).
		Order("created_at DESC", "id DESC").Limit(1).Scan(ctx, &v.Order)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return v, fmt.Errorf("catalog: last order of customer %d: %w", customerID, err)
	}
	cart, err := catalog.GetCart(ctx, db, catalog.PersonalCart(customerID))
	if err != nil {
		return v, err
	}
	var items []string
	for _, it := range cart.Items {
		if it.Product != nil {
			items = append(items, fmt.Sprintf("%d × %s", it.Quantity, it.Product.Title))
		}
	}
	v.Cart = strings.Join(items, ", ")
	return v, nil
}

// Fill puts the values into a canned reply's body.
func (v CannedValues) Fill(body string) string {
	return strings.NewReplacer("{name}", v.Name, "{order}", v.Order, "{cart}", v.Cart).Replace(body)
}
