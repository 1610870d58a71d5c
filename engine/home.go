package engine

import (
	"context"
	"fmt"

	"shopbot/catalog"
	"shopbot/catalog/clip"
	"shopbot/engine/view"
)

// Home sizes: the shared carts and orders a Home lists.
const (
	homeSharedCarts = 5
	homeOrders      = 5
)

// Shopper is a platform user as the adapter verified them, outside a turn.
type Shopper struct {
	Channel  string
	UserID   string // the platform's user id
	UserName string // display name, refreshed on the customer record
}

// Home builds a shopper's Home (view.Home): their personal cart, the
// shared carts of their channel they added to (latest five), their
// latest five orders and the shop's top-level categories. A shopper seen for the first time gets a customer
// record, as on their first turn.
func (e *Engine) Home(ctx context.Context, who Shopper) (*view.Home, error) {
	if err := checkIDs("channel", who.Channel, "user id", who.UserID); err != nil {
		return nil, err
	}
	h, err := e.home(ctx, who)
	if err != nil {
		return nil, fmt.Errorf("engine: home of %s/%s: %w", who.Channel, who.UserID, catalog.Unavailable(err))
	}
	return h, nil
}

func (e *Engine) home(ctx context.Context, who Shopper) (*view.Home, error) {
	db := e.cfg.DB
	c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{
		Channel: who.Channel, PlatformUserID: who.UserID, DisplayName: clip.CleanLine(who.UserName, maxNameRunes),
	})
	if err != nil {
		return nil, err
	}
	own, err := catalog.GetCart(ctx, db, catalog.PersonalCart(c.ID))
	if err != nil {
		return nil, err
	}
	shared, err := catalog.SharedCartsAddedTo(ctx, db, who.Channel, c.ID, homeSharedCarts)
	if err != nil {
		return nil, err
	}
	orders, err := catalog.ListCustomerOrders(ctx, db, c.ID, homeOrders)
	if err != nil {
		return nil, err
	}
	h := &view.Home{Cart: view.CartViewOf(own, e.cfg.Currency), Shared: []view.HomeCart{}, Orders: []view.OrderView{}}
	for i := range shared {
		h.Shared = append(h.Shared, homeCart(&shared[i], c.ID, e.cfg.Currency))
	}
	for i := range orders {
		h.Orders = append(h.Orders, *view.OrderViewOf(&orders[i]))
	}
	all, err := catalog.ListCategories(ctx, db)
	if err != nil {
		return nil, err
	}
	for _, c := range catalog.Children(all, nil) {
		h.Categories = append(h.Categories, c.Name)
	}
	return h, nil
}

// homeCart is a shared cart with the lines customer added marked.
func homeCart(cart *catalog.Cart, customer int64, currency string) view.HomeCart {
	hc := view.HomeCart{ChatID: cart.ChatID, Cart: view.CartViewOf(cart, currency), Yours: map[string]bool{}}
	for _, it := range cart.Items {
		if it.Product != nil && it.AddedBy != nil && *it.AddedBy == customer {
			hc.Yours[it.Product.SKU] = true
		}
	}
	return hc
}
