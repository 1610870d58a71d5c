package tools

import (
	"context"
	"database/sql"
	"fmt"
	"shopbot/engine/toolkit"
	"sync"
	"testing"
	"time"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

// fakeWrites is a WriteStore of function fields: a test sets the writes
// its tool makes; the others fail with errFakeUnset. It keeps the effects
// journal in memory as a database would: a claim, a notice and the log of
// writes commit only with their transaction, a committed claim makes a
// later one report false, and transactions run one at a time.
type fakeWrites struct {
	addToCart       func(ctx context.Context, scope catalog.CartScope, sku string, quantity int, by int64) error
	setCartQuantity func(ctx context.Context, scope catalog.CartScope, sku string, quantity int, by int64) error
	removeFromCart  func(ctx context.Context, scope catalog.CartScope, sku string) error
	saveContact     func(ctx context.Context, customerID int64, contact catalog.Contact) error
	placeOrder      func(ctx context.Context, req catalog.OrderRequest) (*catalog.Order, error)
	requestHuman    func(ctx context.Context, conversationID int64, reason string) error
	applyPromo      func(ctx context.Context, scope catalog.CartScope, customerID int64, code string) (*catalog.PromoQuote, error)
	removePromo     func(ctx context.Context, scope catalog.CartScope) error
	stockAlert      func(ctx context.Context, req catalog.StockAlertRequest) error

	txMu      sync.Mutex // held by the open transaction
	mu        sync.Mutex
	journal   map[string]*fakeEffect // committed rows by turn key + effect key
	committed []string               // the writes of committed transactions, in order
	rollbacks int
}

type fakeEffect struct {
	notice string
	taken  bool
}

// BeginEffect implements WriteStore; the transaction holds txMu until
// its Commit or Rollback.
func (f *fakeWrites) BeginEffect(context.Context) (toolkit.EffectTx, error) {
	f.txMu.Lock()
	return &fakeTx{f: f, rows: map[string]*fakeEffect{}}, nil
}

// TakeEffectNotice implements WriteStore.
func (f *fakeWrites) TakeEffectNotice(_ context.Context, turnKey, effectKey string, _ time.Time) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	row := f.journal[turnKey+"/"+effectKey]
	if row == nil || row.notice == "" || row.taken {
		return "", nil
	}
	row.taken = true
	return row.notice, nil
}

// log is what committed, for a test to compare.
func (f *fakeWrites) log() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.committed...)
}

// fakeTx is one transaction of fakeWrites: rows and log wait for the commit.
type fakeTx struct {
	f    *fakeWrites
	rows map[string]*fakeEffect
	log  []string
	done bool
}

func (tx *fakeTx) Commit() error {
	if tx.done {
		return fmt.Errorf("fake: commit: %w", sql.ErrTxDone)
	}
	tx.done = true
	defer tx.f.txMu.Unlock()
	tx.f.mu.Lock()
	defer tx.f.mu.Unlock()
	if tx.f.journal == nil {
		tx.f.journal = map[string]*fakeEffect{}
	}
	for k, row := range tx.rows {
		tx.f.journal[k] = row
	}
	tx.f.committed = append(tx.f.committed, tx.log...)
	return nil
}

func (tx *fakeTx) Rollback() error {
	if tx.done {
		return nil
	}
	tx.done = true
	defer tx.f.txMu.Unlock()
	tx.f.mu.Lock()
	defer tx.f.mu.Unlock()
	tx.f.rollbacks++
	return nil
}

func (tx *fakeTx) ClaimEffect(_ context.Context, turnKey, effectKey string, _ time.Time) (bool, error) {
	k := turnKey + "/" + effectKey
	if tx.f.journal[k] != nil || tx.rows[k] != nil {
		return false, nil
	}
	tx.rows[k] = &fakeEffect{}
	return true, nil
}

func (tx *fakeTx) SetEffectNotice(_ context.Context, turnKey, effectKey, notice string) error {
	row := tx.rows[turnKey+"/"+effectKey]
	if row == nil {
		return fmt.Errorf("fake: notice of unclaimed effect %s/%s", turnKey, effectKey)
	}
	row.notice = notice
	return nil
}

// record runs a write and logs it for the commit when it succeeds.
func (tx *fakeTx) record(err error, format string, args ...any) error {
	if err == nil {
		tx.log = append(tx.log, fmt.Sprintf(format, args...))
	}
	return err
}

func (tx *fakeTx) AddToCart(ctx context.Context, scope catalog.CartScope, sku string, quantity int, by int64) error {
	if tx.f.addToCart == nil {
		return errFakeUnset
	}
	return tx.record(tx.f.addToCart(ctx, scope, sku, quantity, by), "add %s %s %d by %d", scope.Key(), sku, quantity, by)
}

func (tx *fakeTx) SetCartQuantity(ctx context.Context, scope catalog.CartScope, sku string, quantity int, by int64) error {
	if tx.f.setCartQuantity == nil {
		return errFakeUnset
	}
	return tx.record(tx.f.setCartQuantity(ctx, scope, sku, quantity, by), "set %s %s %d by %d", scope.Key(), sku, quantity, by)
}

func (tx *fakeTx) RemoveFromCart(ctx context.Context, scope catalog.CartScope, sku string) error {
	if tx.f.removeFromCart == nil {
		return errFakeUnset
	}
	return tx.record(tx.f.removeFromCart(ctx, scope, sku), "remove %s %s", scope.Key(), sku)
}

func (tx *fakeTx) SaveContact(ctx context.Context, customerID int64, c catalog.Contact) error {
	if tx.f.saveContact == nil {
		return errFakeUnset
	}
	return tx.record(tx.f.saveContact(ctx, customerID, c), "contact %d %s|%s|%s|%s", customerID, c.Name, c.Phone, c.Address, c.Email)
}

func (tx *fakeTx) PlaceOrder(ctx context.Context, req catalog.OrderRequest) (*catalog.Order, error) {
	if tx.f.placeOrder == nil {
		return nil, errFakeUnset
	}
	o, err := tx.f.placeOrder(ctx, req)
	return o, tx.record(err, "order %s %s", req.IdempotencyKey, req.Scope.Key())
}

func (tx *fakeTx) RequestHuman(ctx context.Context, conversationID int64, reason string) error {
	if tx.f.requestHuman == nil {
		return errFakeUnset
	}
	return tx.record(tx.f.requestHuman(ctx, conversationID, reason), "handoff %d %s", conversationID, reason)
}

func (tx *fakeTx) ApplyPromo(ctx context.Context, scope catalog.CartScope, customerID int64, code string, _ time.Time) (*catalog.PromoQuote, error) {
	if tx.f.applyPromo == nil {
		return nil, errFakeUnset
	}
	q, err := tx.f.applyPromo(ctx, scope, customerID, code)
	return q, tx.record(err, "promo %s %s by %d", scope.Key(), code, customerID)
}

func (tx *fakeTx) RemovePromo(ctx context.Context, scope catalog.CartScope) error {
	if tx.f.removePromo == nil {
		return errFakeUnset
	}
	return tx.record(tx.f.removePromo(ctx, scope), "promo %s removed", scope.Key())
}

func (tx *fakeTx) SubscribeStockAlert(ctx context.Context, req catalog.StockAlertRequest) error {
	if tx.f.stockAlert == nil {
		return errFakeUnset
	}
	return tx.record(tx.f.stockAlert(ctx, req), "alert %d %s", req.CustomerID, req.SKU)
}

// fakeCarts is a Carts that returns the cart cart() builds.
type fakeCarts struct {
	cart func(scope catalog.CartScope) (*catalog.Cart, error)
}

func (f fakeCarts) Cart(_ context.Context, scope catalog.CartScope) (*catalog.Cart, error) {
	if f.cart == nil {
		return nil, errFakeUnset
	}
	return f.cart(scope)
}

// fakeOrders is an Orders that knows the orders of byKey.
type fakeOrders struct{ byKey map[string]*catalog.Order }

func (f fakeOrders) Order(context.Context, string) (*catalog.Order, error) {
	return nil, errFakeUnset
}

func (f fakeOrders) OrderByKey(_ context.Context, key string) (*catalog.Order, error) {
	if o := f.byKey[key]; o != nil {
		return o, nil
	}
	return nil, fmt.Errorf("fake: order %s: %w", key, catalog.ErrNotFound)
}

func (f fakeOrders) CustomerOrders(context.Context, int64, int) ([]catalog.Order, error) {
	return nil, errFakeUnset
}

func (f fakeOrders) PurchaseHistory(context.Context, int64, time.Time) ([]catalog.PurchaseLine, error) {
	return nil, errFakeUnset
}

// fakeShop is a toolbox over fakes only (no database) and a personal
// session of customer 7 in conversation 3.
type fakeShop struct {
	writes  *fakeWrites
	product *catalog.Product // the one product of the catalog, a copy of mug
	tools   *toolkit.Toolbox
	session *session.Session
	notices []string
}

// mug is the product of fakeShop's catalog as it starts.
var mug = &catalog.Product{ID: 1, SKU: "MUG-1", Title: "Mug", Price: 1200, Currency: "USD", Stock: 5, Active: true}

// newFakeShop builds the toolbox over w, a catalog of fs.product and a
// cart holding inCart of it; orders are those of orders.
func newFakeShop(t testing.TB, w *fakeWrites, inCart *int, orders map[string]*catalog.Order) *fakeShop {
	p := *mug
	fs := &fakeShop{writes: w, product: &p}
	deps := &Deps{
		Currency: "USD", Now: func() time.Time { return fixedNow }, Writes: w, Deliveries: fakeDeliveries{},
		Products: fakeProducts{product: func(_ context.Context, sku string) (*catalog.Product, error) {
			if sku == fs.product.SKU {
				return fs.product, nil
			}
			return nil, fmt.Errorf("fake: product %s: %w", sku, catalog.ErrNotFound)
		}},
		Carts: fakeCarts{cart: func(scope catalog.CartScope) (*catalog.Cart, error) {
			c := &catalog.Cart{Scope: scope.Key()}
			if *inCart > 0 {
				c.Items = []catalog.CartItem{{ProductID: fs.product.ID, Product: fs.product, Quantity: *inCart}}
			}
			return c, nil
		}},
		Orders: fakeOrders{byKey: orders},
		Notify: func(n view.Notice) { fs.notices = append(fs.notices, noticeLine(n)) },
	}
	tb, err := toolkit.NewToolbox(Tools(deps)...)
	if err != nil {
		t.Fatal(err)
	}
	fs.tools = tb
	fs.session = fakeSession("turn-1")
	return fs
}

// fakeSession is customer 7's turn dedup in web chat chat-7 (conversation 3).
func fakeSession(dedup string) *session.Session {
	return &session.Session{
		Channel: "web", ChatID: "chat-7", DedupKey: dedup,
		Customer:     &catalog.Customer{ID: 7, DisplayName: "Ann", Contact: catalog.Contact{Email: "ann@example.com"}},
		Conversation: &catalog.Conversation{ID: 3, Channel: "web", ChatID: "chat-7"},
		Scope:        catalog.PersonalCart(7), State: &session.State{}, Currency: "USD", Now: fixedNow,
	}
}

// rerun is the session of the same turn run again (after a crash, or
// delivered twice): a fresh journal view, as Handle builds one.
func (fs *fakeShop) rerun() {
	s := *fs.session
	s.Journal = nil
	s.State = &session.State{}
	fs.session = &s
}

// nextTurn moves the session to the shopper's next message.
func (fs *fakeShop) nextTurn(dedup string) {
	fs.session.DedupKey, fs.session.Journal = dedup, nil
}

func (fs *fakeShop) call(name, args string) (toolkit.Result, error) {
	return fs.tools.Call(context.Background(), fs.session, name, args)
}

func noticeLine(n view.Notice) string {
	line := string(n.Kind) + " conv " + fmt.Sprint(n.ConversationID) + " " + n.Customer
	if n.Order != nil {
		line += " order " + n.Order.Number
	}
	if n.Text != "" {
		line += ": " + n.Text
	}
	return line
}

// fakeDeliveries is a shop without delivery methods: checkout asks for none.
type fakeDeliveries struct{ methods []catalog.DeliveryMethod }

func (f fakeDeliveries) DeliveryMethods(context.Context) ([]catalog.DeliveryMethod, error) {
	return f.methods, nil
}

func (f fakeDeliveries) DefaultCountry(context.Context) (string, error) { return "", nil }
