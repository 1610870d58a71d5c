package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/uptrace/bun"
)

// MaxCartQuantity bounds one cart line.
const MaxCartQuantity = 99

// CartScope says whose cart it is: one customer's, or a shared chat's (a
// Slack channel or a Telegram group), where everyone adds to one cart. The
// engine derives it from the verified session, never from the model.
type CartScope struct {
	CustomerID int64  // set for a personal cart
	Channel    string // set with ChatID for a shared cart
	ChatID     string
}

// PersonalCart is the scope of a customer's own cart.
func PersonalCart(customerID int64) CartScope { return CartScope{CustomerID: customerID} }

// SharedCart is the scope of a chat's shared cart.
func SharedCart(channel, chatID string) CartScope { return CartScope{Channel: channel, ChatID: chatID} }

// Key is the scope's unique storage key.
func (s CartScope) Key() string {
	if s.ChatID != "" {
		return "chat:" + s.Channel + ":" + s.ChatID
	}
	return "customer:" + strconv.FormatInt(s.CustomerID, 10)
}

// Shared reports whether several people fill this cart.
func (s CartScope) Shared() bool { return s.ChatID != "" }

func (s CartScope) validate() error {
	if s.Shared() && s.Channel == "" || !s.Shared() && s.CustomerID <= 0 {
		return fmt.Errorf("%w: cart scope needs a customer or a channel and chat", ErrInvalid)
	}
	return nil
}

// Cart holds what a scope intends to buy.
type Cart struct {
	bun.BaseModel `bun:"table:carts"`

	ID         int64      `bun:"id,pk,autoincrement"`
	Scope      string     `bun:"scope,notnull"`
	Channel    string     `bun:"channel,notnull"`
	ChatID     string     `bun:"chat_id,notnull"`
	CustomerID *int64     `bun:"customer_id"`
	PromoCode  string     `bun:"promo_code,notnull"`
	Items      []CartItem `bun:"rel:has-many,join:id=cart_id"`
	// Promo is what PromoCode does for the cart now (GetCart fills it;
	// nil without a code).
	Promo     *PromoQuote `bun:"-"`
	CreatedAt time.Time   `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt time.Time   `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
}

// CartItem is one product line; AddedBy is who put it there first.
type CartItem struct {
	bun.BaseModel `bun:"table:cart_items"`

	ID        int64     `bun:"id,pk,autoincrement"`
	CartID    int64     `bun:"cart_id,notnull"`
	ProductID int64     `bun:"product_id,notnull"`
	Product   *Product  `bun:"rel:belongs-to,join:product_id=id"`
	Quantity  int       `bun:"quantity,notnull"`
	AddedBy   *int64    `bun:"added_by"`
	Adder     *Customer `bun:"rel:belongs-to,join:added_by=id"`
	AddedAt   time.Time `bun:"added_at,nullzero,notnull,default:current_timestamp"`
}

// Total sums the cart at current prices. Carts hold one currency (the
// shop's); the first item's currency is returned.
func (c *Cart) Total() (amount int64, currency string) {
	for _, it := range c.Items {
		if it.Product == nil {
			continue
		}
		amount += it.Product.Price * int64(it.Quantity)
		if currency == "" {
			currency = it.Product.Currency
		}
	}
	return amount, currency
}

// Count returns the number of units in the cart.
func (c *Cart) Count() int {
	n := 0
	for _, it := range c.Items {
		n += it.Quantity
	}
	return n
}

// GetCart loads the scope's cart with its items, products and who added
// them. A scope that never had a cart gets an empty, unsaved Cart.
func GetCart(ctx context.Context, db bun.IDB, scope CartScope) (*Cart, error) {
	if err := scope.validate(); err != nil {
		return nil, fmt.Errorf("catalog: get cart: %w", err)
	}
	c := new(Cart)
	err := db.NewSelect().Model(c).
		Relation("Items", func(q *bun.SelectQuery) *bun.SelectQuery { return q.Order("cart_item.id") }).
		Relation("Items.Product").Relation("Items.Adder").
		Where("cart.scope = ?", scope.Key()).Scan(ctx)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return newCart(scope), nil
		}
		return nil, fmt.Errorf("catalog: get cart %s: %w", scope.Key(), err)
	}
	if c.Promo, err = quoteCartPromo(ctx, db, c, scope.CustomerID, time.Now()); err != nil {
		return nil, err
	}
	return c, nil
}

func newCart(scope CartScope) *Cart {
	c := &Cart{Scope: scope.Key(), Channel: scope.Channel, ChatID: scope.ChatID}
	if !scope.Shared() {
		id := scope.CustomerID
		c.CustomerID = &id
	}
	return c
}

// ensureCart returns the id of the scope's cart row, creating it.
func ensureCart(ctx context.Context, db bun.IDB, scope CartScope) (int64, error) {
	c := newCart(scope)
	now := time.Now().UTC()
	c.CreatedAt, c.UpdatedAt = now, now
	_, err := db.NewInsert().Model(c).
		On("CONFLICT (scope) DO UPDATE").Set("updated_at = EXCLUDED.updated_at").
		Returning("id").Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: create cart %s: %w", scope.Key(), err)
	}
	return c.ID, nil
}

// ClearCart empties the scope's cart.
func ClearCart(ctx context.Context, db bun.IDB, scope CartScope) error {
	sub := db.NewSelect().Model((*Cart)(nil)).Column("id").Where("scope = ?", scope.Key())
	if _, err := db.NewDelete().Model((*CartItem)(nil)).Where("cart_id IN (?)", sub).Exec(ctx); err != nil {
		return fmt.Errorf("catalog: clear cart %s: %w", scope.Key(), err)
	}
	return nil
}

// CartSummary is a cart's size and value without its lines.
type CartSummary struct {
	Units    int
	Total    int64
	Currency string
}

// SummarizeCart returns the scope's units and total in one query (the
// prompt needs only these, on every turn).
func SummarizeCart(ctx context.Context, db bun.IDB, scope CartScope) (CartSummary, error) {
	var sum CartSummary
	var currency sql.NullString
	err := selectValues(ctx, db, `SELECT COALESCE(SUM(ci.quantity), 0), COALESCE(SUM(ci.quantity * p.price), 0), MIN(p.currency)
		FROM cart_items AS ci JOIN carts AS c ON c.id = ci.cart_id JOIN products AS p ON p.id = ci.product_id
		WHERE c.scope = $1`, []any{scope.Key()}, &sum.Units, &sum.Total, &currency)
	if err != nil {
		return sum, fmt.Errorf("catalog: summarize cart %s: %w", scope.Key(), err)
	}
	sum.Currency = currency.String
	return sum, nil
}

// SharedCartsAddedTo returns up to limit shared carts of channel (Slack
// channels, Telegram groups) holding at least one line customerID added,
// most recently changed first, with their items, products and adders.
func SharedCartsAddedTo(ctx context.Context, db bun.IDB, channel string, customerID int64, limit int) ([]Cart, error) {
	var carts []Cart
	added := db.NewSelect().Model((*CartItem)(nil)).Column("cart_id").Where("added_by = ?", customerID)
	err := db.NewSelect().Model(&carts).
		Relation("Items", func(q *bun.SelectQuery) *bun.SelectQuery { return q.Order("cart_item.id") }).
		Relation("Items.Product").Relation("Items.Adder").
		Where("cart.channel = ?", channel).Where("cart.chat_id <> ''").
		Where("cart.id IN (?)", added).
		Order("cart.updated_at DESC", "cart.id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: shared carts of customer %d: %w", customerID, err)
	}
	return carts, nil
}
