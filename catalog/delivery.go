package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"
)

// DeliveryMethod is a way the shop delivers an order, as the merchant
// defines it. Prices are minor units of the shop currency.
type DeliveryMethod struct {
	bun.BaseModel `bun:"table:delivery_methods"`

	ID    int64  `bun:"id,pk,autoincrement"`
	Name  string `bun:"name,notnull"`
	Price int64  `bun:"price,notnull"`
	// FreeOver is the subtotal from which the method costs nothing
	// (a subtotal equal to it ships free); 0: never free.
	FreeOver int64 `bun:"free_over,notnull"`
	// Countries is "any" or ISO 3166-1 alpha-2 codes joined by commas.
	Countries string    `bun:"countries,notnull"`
	DaysMin   int       `bun:"days_min,notnull"`
	DaysMax   int       `bun:"days_max,notnull"`
	Pickup    bool      `bun:"pickup,notnull"`
	Active    bool      `bun:"active,notnull"`
	Position  int       `bun:"position,notnull"`
	CreatedAt time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt time.Time `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
	// Demo is the demo column (a row the demo shop created, demo_state.go)
	// where a query reads every column; bun never writes it: MarkDemo does.
	Demo bool `bun:"demo,scanonly"`
}

// AnyCountry is the Countries value of a method that ships everywhere.
const AnyCountry = "any"

// Fits reports whether the method can deliver to country (an ISO code;
// "" when unknown). A pickup fits every address: the shopper comes to the
// shop. A method for "any" country fits an unknown one too.
func (m *DeliveryMethod) Fits(country string) bool {
	if !m.Active {
		return false
	}
	if m.Pickup || m.Countries == AnyCountry {
		return true
	}
	return country != "" && slices.Contains(strings.Split(m.Countries, ","), country)
}

// PriceFor is what the method costs for an order of subtotal.
func (m *DeliveryMethod) PriceFor(subtotal int64) int64 {
	if m.FreeOver > 0 && subtotal >= m.FreeOver {
		return 0
	}
	return m.Price
}

// FittingDeliveries keeps the methods that fit country, in their order.
func FittingDeliveries(ms []DeliveryMethod, country string) []DeliveryMethod {
	var out []DeliveryMethod
	for _, m := range ms {
		if m.Fits(country) {
			out = append(out, m)
		}
	}
	return out
}

// Limits of a delivery method's fields.
const (
	MaxDeliveryName = 60
	MaxDeliveryDays = 365
	maxDeliveryCost = 100_000_000 // minor units: a million in most currencies
)

// Normalize checks a method as the merchant typed it and puts its fields
// in their stored form (trimmed name, upper-case sorted codes).
func (m *DeliveryMethod) Normalize() error {
	m.Name = strings.Join(strings.Fields(m.Name), " ")
	switch n := utf8.RuneCountInString(m.Name); {
	case n == 0:
		return fmt.Errorf("%w: a delivery method needs a name", ErrInvalid)
	case n > MaxDeliveryName:
		return fmt.Errorf("%w: the name is longer than %d characters", ErrInvalid, MaxDeliveryName)
	}
	if m.Price < 0 || m.Price > maxDeliveryCost || m.FreeOver < 0 || m.FreeOver > maxDeliveryCost {
		return fmt.Errorf("%w: price and free-over threshold must be between 0 and %d", ErrInvalid, maxDeliveryCost)
	}
	if m.DaysMin < 0 || m.DaysMax < m.DaysMin || m.DaysMax > MaxDeliveryDays {
		return fmt.Errorf("%w: estimated days must be 0 ≤ min ≤ max ≤ %d", ErrInvalid, MaxDeliveryDays)
	}
	countries, err := NormalizeCountries(m.Countries)
	if err != nil {
		return err
	}
	m.Countries = countries
	return nil
}

// NormalizeCountries reads "any" or a list of country codes or names
// separated by commas or spaces ("ca, US", "Canada, Germany") into "any" or
// sorted ISO codes ("CA,US").
func NormalizeCountries(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, AnyCountry) {
		return AnyCountry, nil
	}
	var codes []string
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		code, ok := CountryCode(part)
		if !ok {
			return "", fmt.Errorf("%w: unknown country %q (use ISO codes such as US, DE, RU, or \"any\")", ErrInvalid, clipRunes(part, 40))
		}
		if !slices.Contains(codes, code) {
			codes = append(codes, code)
		}
	}
	if len(codes) == 0 {
		return AnyCountry, nil
	}
	slices.Sort(codes)
	return strings.Join(codes, ","), nil
}

func clipRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// ListDeliveryMethods returns every method (active or not) in the
// merchant's order.
func ListDeliveryMethods(ctx context.Context, db bun.IDB) ([]DeliveryMethod, error) {
	var ms []DeliveryMethod
	if err := db.NewSelect().Model(&ms).Order("position", "id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: list delivery methods: %w", err)
	}
	return ms, nil
}

// ActiveDeliveryMethods returns the methods shoppers can choose.
func ActiveDeliveryMethods(ctx context.Context, db bun.IDB) ([]DeliveryMethod, error) {
	var ms []DeliveryMethod
	if err := db.NewSelect().Model(&ms).Where("active").Order("position", "id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: list delivery methods: %w", err)
	}
	return ms, nil
}

// GetDeliveryMethod loads one method by id.
func GetDeliveryMethod(ctx context.Context, db bun.IDB, id int64) (*DeliveryMethod, error) {
	m := new(DeliveryMethod)
	if err := db.NewSelect().Model(m).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err, "delivery method %d", id)
	}
	return m, nil
}

// SaveDeliveryMethod creates the method (ID 0) or updates it. Names are
// unique regardless of case: a second method of the same name, even one
// saved at the same moment by another panel, is ErrConflict.
func SaveDeliveryMethod(ctx context.Context, db bun.IDB, m *DeliveryMethod, now time.Time) error {
	if err := m.Normalize(); err != nil {
		return fmt.Errorf("catalog: save delivery method: %w", err)
	}
	m.UpdatedAt = now.UTC()
	var err error
	if m.ID == 0 {
		m.CreatedAt = m.UpdatedAt
		_, err = db.NewInsert().Model(m).Returning("id").Exec(ctx)
	} else {
		var res sql.Result
		res, err = db.NewUpdate().Model(m).
			Column("name", "price", "free_over", "countries", "days_min", "days_max", "pickup", "active", "position", "updated_at").
			WherePK().Exec(ctx)
		if err == nil {
			err = expectOneRow(res, nil, "delivery method %d", m.ID)
		}
	}
	if err != nil && isUniqueViolation(err) {
		return fmt.Errorf("catalog: a delivery method named %q exists: %w", m.Name, ErrConflict)
	}
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("catalog: save delivery method: %w", err)
	}
	return err
}

// DeleteDeliveryMethod removes a method; orders keep its name and price.
func DeleteDeliveryMethod(ctx context.Context, db bun.IDB, id int64) error {
	res, err := db.NewDelete().Model((*DeliveryMethod)(nil)).Where("id = ?", id).Exec(ctx)
	return expectOneRow(res, err, "delivery method %d", id)
}

// settingDefaultCountry is the settings row of the shop's own country.
const settingDefaultCountry = "default_country"

// DefaultCountry is the country assumed for an address that names none
// ("" when the merchant has not set one).
func DefaultCountry(ctx context.Context, db bun.IDB) (string, error) {
	var r setting
	err := db.NewSelect().Model(&r).Where("key = ?", settingDefaultCountry).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("catalog: read default country: %w", err)
	}
	return r.Value, nil
}

// SetDefaultCountry stores the shop's country: a code or name, or "" for
// none.
func SetDefaultCountry(ctx context.Context, db bun.IDB, country string, now time.Time) error {
	code := ""
	if strings.TrimSpace(country) != "" {
		var ok bool
		if code, ok = CountryCode(country); !ok {
			return fmt.Errorf("catalog: %w: unknown country %q", ErrInvalid, clipRunes(strings.TrimSpace(country), 40))
		}
	}
	row := setting{Key: settingDefaultCountry, Value: code, UpdatedAt: now.UTC()}
	_, err := db.NewInsert().Model(&row).
		On("CONFLICT (key) DO UPDATE").Set("value = EXCLUDED.value, updated_at = EXCLUDED.updated_at").Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: save default country: %w", err)
	}
	return nil
}

// DeliveryRequest is the delivery an order asks for: the method the
// shopper chose and the country of the address, which PlaceOrder checks
// again inside the order's transaction.
type DeliveryRequest struct {
	MethodID int64
	Country  string
}

// orderDelivery resolves the delivery of an order inside its transaction:
// the method must still be active and fit the country, and its price is
// the one for this subtotal now.
func orderDelivery(ctx context.Context, tx bun.IDB, d *DeliveryRequest, subtotal int64) (name string, price int64, err error) {
	if d == nil {
		return "", 0, nil
	}
	m, err := GetDeliveryMethod(ctx, tx, d.MethodID)
	if err != nil {
		return "", 0, fmt.Errorf("catalog: place order: delivery: %w", err)
	}
	if !m.Fits(d.Country) {
		return "", 0, fmt.Errorf("catalog: place order: %w: delivery %q is not available for this address", ErrInvalid, m.Name)
	}
	return m.Name, m.PriceFor(subtotal), nil
}
