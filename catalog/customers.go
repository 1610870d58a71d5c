package catalog

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// Customer is a person as a platform identifies them: (Channel,
// PlatformUserID) comes from the platform's verified update, never from the
// model.
type Customer struct {
	bun.BaseModel `bun:"table:customers"`

	ID             int64  `bun:"id,pk,autoincrement"`
	Channel        string `bun:"channel,notnull"`
	PlatformUserID string `bun:"platform_user_id,notnull"`
	DisplayName    string `bun:"display_name,notnull"`
	Username       string `bun:"username,notnull"`
	Locale         string `bun:"locale,notnull"`
	Contact
	// TokensDay and TokensUsed count the model tokens spent on this
	// customer on one day (YYYY-MM-DD, UTC) for the daily budget.
	TokensDay  *string   `bun:"tokens_day"`
	TokensUsed int       `bun:"tokens_used,notnull"`
	CreatedAt  time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt  time.Time `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
}

// Contact is where an order goes and whom to call about it.
type Contact struct {
	Name    string `bun:"contact_name,notnull"`
	Phone   string `bun:"phone,notnull"`
	Email   string `bun:"email,notnull"`
	Address string `bun:"address,notnull"`
}

// Identity is the verified platform identity of a message's author.
type Identity struct {
	Channel        string
	PlatformUserID string
	DisplayName    string
	Username       string
	Locale         string
}

// ResolveCustomer returns the customer for a platform identity, creating it
// on first contact and refreshing the display name, username and locale.
func ResolveCustomer(ctx context.Context, db bun.IDB, id Identity) (*Customer, error) {
	if strings.TrimSpace(id.Channel) == "" || strings.TrimSpace(id.PlatformUserID) == "" {
		return nil, fmt.Errorf("catalog: resolve customer: %w: channel and platform user id are required", ErrInvalid)
	}
	// A name Postgres cannot store would fail this customer's every turn.
	id.DisplayName, id.Username, id.Locale = storable(id.DisplayName), storable(id.Username), storable(id.Locale)
	// Most turns come from a known customer whose names have not changed:
	// a read then, and a write only when something is new.
	known := new(Customer)
	err := selectOne(ctx, db, known, "SELECT "+columnsOf(db, known)+
		" FROM customers WHERE channel = $1 AND platform_user_id = $2", id.Channel, id.PlatformUserID)
	if err == nil && known.DisplayName == id.DisplayName && known.Username == id.Username && known.Locale == id.Locale {
		return known, nil
	}
	return upsertCustomer(ctx, db, id)
}

// upsertCustomer creates the customer of id, or updates its names.
func upsertCustomer(ctx context.Context, db bun.IDB, id Identity) (*Customer, error) {
	now := time.Now().UTC()
	c := &Customer{
		Channel: id.Channel, PlatformUserID: id.PlatformUserID,
		DisplayName: id.DisplayName, Username: id.Username, Locale: id.Locale,
		CreatedAt: now, UpdatedAt: now,
	}
	_, err := db.NewInsert().Model(c).
		On("CONFLICT (channel, platform_user_id) DO UPDATE").
		Set("display_name = EXCLUDED.display_name, username = EXCLUDED.username").
		Set("locale = EXCLUDED.locale, updated_at = EXCLUDED.updated_at").
		Returning("*").
		Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: resolve customer %s/%s: %w", id.Channel, id.PlatformUserID, err)
	}
	return c, nil
}

// GetCustomer loads a customer by id.
func GetCustomer(ctx context.Context, db bun.IDB, id int64) (*Customer, error) {
	c := new(Customer)
	if err := db.NewSelect().Model(c).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err, "customer %d", id)
	}
	return c, nil
}

// SaveContact stores a customer's contact details for the next checkout.
func SaveContact(ctx context.Context, db bun.IDB, customerID int64, ct Contact) error {
	res, err := db.NewUpdate().Model((*Customer)(nil)).
		Set("contact_name = ?", ct.Name).Set("phone = ?", ct.Phone).
		Set("email = ?", ct.Email).Set("address = ?", ct.Address).
		Set("updated_at = ?", time.Now().UTC()).
		Where("id = ?", customerID).Exec(ctx)
	return expectOneRow(res, err, "customer %d", customerID)
}

// TokensToday returns the tokens a customer used on day (YYYY-MM-DD).
func (c *Customer) TokensToday(day string) int {
	if c.TokensDay == nil || *c.TokensDay != day {
		return 0
	}
	return c.TokensUsed
}

// AddTokens adds model tokens to the customer's count for day
// (YYYY-MM-DD, UTC), starting a fresh count on a new day.
func AddTokens(ctx context.Context, db bun.IDB, customerID int64, day string, n int) error {
	if n <= 0 {
		return nil
	}
	res, err := exec(ctx, db, `UPDATE customers
		SET tokens_used = CASE WHEN tokens_day = $1 THEN tokens_used + $2 ELSE $2 END, tokens_day = $1
		WHERE id = $3`, day, n, customerID)
	return expectOneRow(res, err, "customer %d", customerID)
}

// storable makes text from outside storable in either database: invalid
// UTF-8 becomes U+FFFD and NUL is dropped (Postgres refuses both in text).
// The edges clean text before it gets here (clip.Clean); this is
// the last guard where one bad byte would otherwise fail every write of a
// row, such as a customer's name refreshed on each turn.
func storable(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "")
	}
	return s
}
