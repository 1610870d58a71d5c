package tools

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog/search"
	"shopbot/engine/session"
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// Deps are what tools work with.
type Deps struct {
	// DB is what Products, Carts, Orders and Writes use when they are
	// nil: the catalog's repository functions on it (toolkit.Store,
	// toolkit.DBWrites). Writes opens the transaction each effect is
	// written in, with its journal row (toolkit.Effects).
	DB       *bun.DB
	Products toolkit.Products
	Carts    toolkit.Carts
	Orders   toolkit.Orders
	Writes   toolkit.WriteStore
	// Deliveries reads the delivery methods (nil: Store on DB).
	Deliveries toolkit.Deliveries
	Search     search.Searcher
	// Passages searches the shop's pages (search_shop_info); nil: none.
	Passages toolkit.PassageSearcher
	Currency string           // the shop currency, e.g. "USD"
	Now      func() time.Time // clock; time.Now in production
	// ReturnWindow is how long after delivery a shopper may ask a return
	// (request_return; 0: no limit).
	ReturnWindow time.Duration
	// Notify tells someone outside the turn (an order placed, a handoff).
	// It must not block; nil drops notices.
	Notify func(n view.Notice)
	// PaymentLink is where the buyer of an order an agent placed pays
	// (a Telegram invoice link, a web payment page); nil, or an error,
	// and the order awaits payment the merchant takes.
	PaymentLink func(ctx context.Context, o *view.OrderView) (string, error)
}

func (d *Deps) products() toolkit.Products {
	if d.Products != nil {
		return d.Products
	}
	return toolkit.Store{DB: d.DB}
}

func (d *Deps) carts() toolkit.Carts {
	if d.Carts != nil {
		return d.Carts
	}
	return toolkit.Store{DB: d.DB}
}

func (d *Deps) orders() toolkit.Orders {
	if d.Orders != nil {
		return d.Orders
	}
	return toolkit.Store{DB: d.DB}
}

func (d *Deps) deliveries() toolkit.Deliveries {
	if d.Deliveries != nil {
		return d.Deliveries
	}
	return toolkit.Store{DB: d.DB}
}

func (d *Deps) effects() toolkit.Effects {
	w := d.Writes
	if w == nil {
		w = toolkit.DBWrites{DB: d.DB}
	}
	return toolkit.Effects{Writes: w, Notify: d.Notify, Now: d.Now}
}

// apply makes the effect of key once per turn, in its own transaction
// with its journal row (toolkit.Effects.Apply).
func (d *Deps) apply(ctx context.Context, s *session.Session, key string, write toolkit.EffectWrite) (applied bool, err error) {
	return d.effects().Apply(ctx, s, key, write)
}

// Deliver claims an effect's notice and sends it (toolkit.Effects.Deliver).
func (d *Deps) Deliver(ctx context.Context, turnKey, effectKey string) {
	d.effects().Deliver(ctx, turnKey, effectKey)
}

func (d *Deps) now() time.Time {
	if d.Now == nil {
		return time.Now()
	}
	return d.Now()
}

// deliverPending delivers the effect's notice if no run of the turn has
// claimed it yet.
func (d *Deps) deliverPending(ctx context.Context, s *session.Session, key string) {
	d.effects().DeliverPending(ctx, s, key)
}
