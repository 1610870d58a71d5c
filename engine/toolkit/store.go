package toolkit

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

// What tools read, as narrow interfaces, so a tool can run against a fake
// as well as a database (Deps.Products, Carts, Orders; nil reads the
// catalog through Store). What they write is behind Writes (writes.go),
// called inside one effect's transaction with its journal row
// (effects.go).

// Products is the catalog as tools read it.
type Products interface {
	Product(ctx context.Context, sku string) (*catalog.Product, error)
	Products(ctx context.Context, skus []string) ([]catalog.Product, error)
	Categories(ctx context.Context) ([]catalog.Category, error)
	CategoryCounts(ctx context.Context) (map[int64]int, error)
	Reviews(ctx context.Context, productID int64, limit int) ([]catalog.Review, error)
	// ProductByID and Variants read a product's family: a variant's
	// parent, a parent's variants in the order they were created.
	ProductByID(ctx context.Context, id int64) (*catalog.Product, error)
	Variants(ctx context.Context, parentID int64) ([]catalog.Product, error)
}

// Carts reads a cart.
type Carts interface {
	Cart(ctx context.Context, scope catalog.CartScope) (*catalog.Cart, error)
}

// Orders reads a shopper's orders and purchases.
type Orders interface {
	Order(ctx context.Context, number string) (*catalog.Order, error)
	OrderByKey(ctx context.Context, key string) (*catalog.Order, error)
	CustomerOrders(ctx context.Context, customerID int64, limit int) ([]catalog.Order, error)
	PurchaseHistory(ctx context.Context, customerID int64, since time.Time) ([]catalog.PurchaseLine, error)
}

// Store reads the catalog in a database: Products, Carts and Orders over
// the catalog package's repository functions.
type Store struct{ DB bun.IDB }

// Product implements Products.
func (s Store) Product(ctx context.Context, sku string) (*catalog.Product, error) {
	return catalog.GetProduct(ctx, s.DB, sku)
}

// Products implements Products.
func (s Store) Products(ctx context.Context, skus []string) ([]catalog.Product, error) {
	return catalog.GetProducts(ctx, s.DB, skus)
}

// Categories implements Products.
func (s Store) Categories(ctx context.Context) ([]catalog.Category, error) {
	return catalog.ListCategories(ctx, s.DB)
}

// CategoryCounts implements Products.
func (s Store) CategoryCounts(ctx context.Context) (map[int64]int, error) {
	return catalog.CategoryProductCounts(ctx, s.DB)
}

// Reviews implements Products.
func (s Store) Reviews(ctx context.Context, productID int64, limit int) ([]catalog.Review, error) {
	return catalog.ListReviews(ctx, s.DB, productID, limit)
}

// ProductByID implements Products.
func (s Store) ProductByID(ctx context.Context, id int64) (*catalog.Product, error) {
	return catalog.GetProductByID(ctx, s.DB, id)
}

// Variants implements Products.
func (s Store) Variants(ctx context.Context, parentID int64) ([]catalog.Product, error) {
	return catalog.ListVariants(ctx, s.DB, parentID)
}

// Cart implements Carts.
func (s Store) Cart(ctx context.Context, scope catalog.CartScope) (*catalog.Cart, error) {
	return catalog.GetCart(ctx, s.DB, scope)
}

// Order implements Orders.
func (s Store) Order(ctx context.Context, number string) (*catalog.Order, error) {
	return catalog.GetOrder(ctx, s.DB, number)
}

// OrderByKey implements Orders.
func (s Store) OrderByKey(ctx context.Context, key string) (*catalog.Order, error) {
	return catalog.GetOrderByKey(ctx, s.DB, key)
}

// CustomerOrders implements Orders.
func (s Store) CustomerOrders(ctx context.Context, customerID int64, limit int) ([]catalog.Order, error) {
	return catalog.ListCustomerOrders(ctx, s.DB, customerID, limit)
}

// PurchaseHistory implements Orders.
func (s Store) PurchaseHistory(ctx context.Context, customerID int64, since time.Time) ([]catalog.PurchaseLine, error) {
	return catalog.PurchaseHistory(ctx, s.DB, customerID, since)
}

// Deliveries reads the shop's delivery methods and its own country.
type Deliveries interface {
	DeliveryMethods(ctx context.Context) ([]catalog.DeliveryMethod, error)
	DefaultCountry(ctx context.Context) (string, error)
}

// DeliveryMethods implements Deliveries: the active methods.
func (s Store) DeliveryMethods(ctx context.Context) ([]catalog.DeliveryMethod, error) {
	return catalog.ActiveDeliveryMethods(ctx, s.DB)
}

// DefaultCountry implements Deliveries.
func (s Store) DefaultCountry(ctx context.Context) (string, error) {
	return catalog.DefaultCountry(ctx, s.DB)
}

// ReviewReader loads reviews found by a passage search (Store implements
// it; a Products fake may too).
type ReviewReader interface {
	ReviewsByID(ctx context.Context, ids []int64) ([]catalog.ReviewDetail, error)
}

// ReviewsByID implements ReviewReader.
func (s Store) ReviewsByID(ctx context.Context, ids []int64) ([]catalog.ReviewDetail, error) {
	return catalog.ReviewsByID(ctx, s.DB, ids)
}

// PassageSearcher is the passage search search_shop_info needs (package
// search's backends implement it).
type PassageSearcher interface {
	SearchPassages(ctx context.Context, q search.PassageQuery) ([]search.Passage, error)
}

// OrderReturns reads an order's returns (get_order_status, request_return;
// a store without it shows none).
func (s Store) OrderReturns(ctx context.Context, orderID int64) ([]catalog.OrderReturn, error) {
	return catalog.OrderReturns(ctx, s.DB, orderID)
}

// QuoteOrderEdit prices a change of an order's lines without writing
// (change_order_items asks the shopper with it).
func (s Store) QuoteOrderEdit(ctx context.Context, o *catalog.Order, want map[string]int) (*catalog.OrderQuote, error) {
	return catalog.QuoteOrderEdit(ctx, s.DB, o, want)
}
