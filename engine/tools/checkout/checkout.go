package checkout

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"shopbot/engine/toolkit"
	"sort"
	"strings"

	"shopbot/catalog"
	"shopbot/catalog/search/analysis"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

type checkoutArgs struct {
	Name     string `json:"name"`
	Phone    string `json:"phone"`
	Address  string `json:"address"`
	Delivery string `json:"delivery"`
	Confirm  bool   `json:"confirm"`
	// Email and PhoneOptional are set by the agent door's checkout
	// (agent.go), never by the chat model: a buyer's e-mail
	// given explicitly, and a phone that may stay empty beside it.
	Email         string `json:"-"`
	PhoneOptional bool   `json:"-"`
}

// checkoutData is what the model reads at each step of a checkout.
type checkoutData struct {
	Status      string            `json:"status"` // need_details, confirm, placed
	Missing     []string          `json:"missing,omitempty"`
	Invalid     map[string]string `json:"invalid,omitempty"`
	Summary     *checkoutSummary  `json:"summary,omitempty"`
	Reason      string            `json:"reason,omitempty"`
	Instruction string            `json:"instruction,omitempty"`
	Order       *placedOrder      `json:"order,omitempty"`
	// Country and Delivery: the delivery methods to choose from
	// (choose_delivery), or where none goes (no_delivery).
	Country  string           `json:"country,omitempty"`
	Delivery []DeliveryOption `json:"delivery_options,omitempty"`
}

type checkoutSummary struct {
	Lines         []toolkit.CartLine `json:"lines"`
	Promo         *toolkit.PromoData `json:"promo,omitempty"`
	Subtotal      string             `json:"subtotal,omitempty"`
	Delivery      string             `json:"delivery,omitempty"`
	DeliveryPrice string             `json:"delivery_price,omitempty"`
	Total         string             `json:"total"`
	Contact       checkoutContact    `json:"contact"`
}

type checkoutContact struct {
	Name    string `json:"name"`
	Phone   string `json:"phone"`
	Address string `json:"address"`
	// Email is an agent buyer's e-mail (empty in chat, so a chat
	// summary's fingerprint is as before).
	Email string `json:"email,omitempty"`
}

type placedOrder struct {
	Number string `json:"number"`
	Total  string `json:"total"`
	Status string `json:"status"`
}

// Why a confirmation did not place the order.
const (
	ReasonChanged = "prices or cart changed"
	reasonUnseen  = "the shopper has not seen the summary yet"
)

// errSummaryStale rolls back an order whose content differs from the
// summary the shopper confirmed.
var errSummaryStale = errors.New("engine: order differs from the confirmed summary")

// Tool is checkout, the chat's: without confirm it collects the contact
// and the delivery and shows the summary; with confirm, in a later turn,
// it places the order of that summary (runCheckout).
func Tool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "checkout",
		Description: "Check out: without confirm, collects contact details and returns the summary to show; confirm=true only after the shopper confirmed it in a later message.",
		Schema: toolkit.Object(map[string]any{
			"name":     toolkit.Str("recipient's full name", 100),
			"phone":    toolkit.Str("", 32),
			"address":  toolkit.Str("shipping address", 300),
			"delivery": toolkit.Str("delivery method name", 60),
			"confirm":  map[string]any{"type": "boolean", "description": "only after the shopper confirmed the summary"},
		}),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a checkoutArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			return runCheckout(ctx, d, s, a)
		},
	}
}

func runCheckout(ctx context.Context, d *Deps, s *session.Session, a checkoutArgs) (toolkit.Result, error) {
	if s.DedupKey == "" {
		return toolkit.Result{}, errors.New("engine: checkout: the turn has no dedup key, so the order cannot be idempotent")
	}
	// A replayed turn finds the order it already placed (and delivers
	// its notice if the run that placed it stopped before).
	if o, err := d.Orders().OrderByKey(ctx, s.IdempotencyKey()); err == nil {
		if o.CartScope != s.Scope.Key() {
			return toolkit.Result{}, fmt.Errorf("engine: checkout: %w", catalog.ErrIdempotencyKey)
		}
		d.DeliverPending(ctx, s, orderEffect)
		return orderPlaced(s, o), nil
	} else if !errors.Is(err, catalog.ErrNotFound) {
		return toolkit.Result{}, err
	}
	cart, err := d.Carts().Cart(ctx, s.Scope)
	if err != nil {
		return toolkit.Result{}, err
	}
	if len(cart.Items) == 0 {
		return toolkit.Result{}, fmt.Errorf("%w: add products before checking out", catalog.ErrEmptyCart)
	}
	declinedPromo(s, cart)
	ct, missing, invalid := resolveContact(s, a)
	if len(missing) > 0 || len(invalid) > 0 {
		return needDetails(s, ct, missing, invalid), nil
	}
	dq, ask, err := checkoutDelivery(ctx, d, s, cart, ct, a.Delivery)
	if err != nil || ask != nil {
		return derefResult(ask), err
	}
	fp := fingerprint(cartFingerprintLines(cart), ct, dq.line())
	if !a.Confirm {
		return showSummary(ctx, d, s, cart, ct, dq, fp, "")
	}
	if reason := confirmProblem(s, fp); reason != "" {
		return showSummary(ctx, d, s, cart, ct, dq, fp, withPromoNote(reason, cart))
	}
	o, err := placeConfirmed(ctx, d, s, ct, dq, fp, orderPromo(cart))
	var pe *catalog.PromoError
	switch {
	case errors.Is(err, errSummaryStale):
		return refreshSummary(ctx, d, s, ct, ReasonChanged)
	case errors.As(err, &pe):
		return promoRefused(ctx, d, s, ct, pe)
	case errors.Is(err, catalog.ErrOutOfStock):
		return toolkit.Result{}, orderStockError(ctx, d, s, err)
	case err != nil:
		return toolkit.Result{}, err
	}
	return orderPlaced(s, o), nil
}

// resolveContact takes each field from the arguments, else from the
// checkout in progress, else from the customer's saved contact, and
// validates it. Valid fields are kept in the checkout state.
func resolveContact(s *session.Session, a checkoutArgs) (ct checkoutContact, missing []string, invalid map[string]string) {
	prev := s.State.Checkout
	if prev == nil {
		prev = &session.CheckoutState{}
	}
	saved := s.Customer.Contact
	fields := []struct {
		name              string
		arg, state, saved string
		check             func(string) string
		dst               *string
	}{
		{"name", a.Name, prev.Name, saved.Name, checkName, &ct.Name},
		{"phone", a.Phone, prev.Phone, saved.Phone, checkPhone, &ct.Phone},
		{"address", a.Address, prev.Address, saved.Address, checkAddress, &ct.Address},
	}
	ct.Email = firstNonEmpty(a.Email, prev.Email)
	for _, f := range fields {
		v := firstNonEmpty(analysis.CleanText(f.arg), analysis.CleanText(f.state), analysis.CleanText(f.saved))
		switch {
		case v == "" && f.name == "phone" && a.PhoneOptional:
		case v == "":
			missing = append(missing, f.name)
		case f.check(v) != "":
			if invalid == nil {
				invalid = map[string]string{}
			}
			invalid[f.name] = f.check(v)
		default:
			*f.dst = v
		}
	}
	return ct, missing, invalid
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

func checkName(v string) string {
	if n := len([]rune(v)); n < 2 || n > 100 {
		return "must be 2 to 100 characters"
	}
	return ""
}

func checkPhone(v string) string {
	digits := 0
	for i, r := range v {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '+' && i == 0, r == ' ', r == '-', r == '(', r == ')':
		default:
			return "may contain only digits, spaces, - ( ) and a leading +"
		}
	}
	if digits < 7 || digits > 15 {
		return "must have 7 to 15 digits"
	}
	return ""
}

func checkAddress(v string) string {
	if n := len([]rune(v)); n < 5 || n > 300 {
		return "must be 5 to 300 characters"
	}
	return ""
}

func needDetails(s *session.Session, ct checkoutContact, missing []string, invalid map[string]string) toolkit.Result {
	awaiting := ""
	if len(missing) > 0 {
		awaiting = missing[0]
	} else {
		for _, f := range []string{"name", "phone", "address"} {
			if _, bad := invalid[f]; bad {
				awaiting = f
				break
			}
		}
	}
	s.State.Checkout = &session.CheckoutState{Awaiting: awaiting, Name: ct.Name, Phone: ct.Phone, Address: ct.Address, Email: ct.Email}
	return toolkit.Result{Data: checkoutData{Status: "need_details", Missing: missing, Invalid: invalid}}
}

// fingerprintLine is a cart or order line as the summary fingerprint sees it.
type fingerprintLine struct {
	SKU       string `json:"sku"`
	Qty       int    `json:"qty"`
	UnitPrice int64  `json:"unit_price"`
	Currency  string `json:"currency"`
}

func cartFingerprintLines(c *catalog.Cart) []fingerprintLine {
	var out []fingerprintLine
	for _, it := range c.Items {
		if it.Product != nil {
			out = append(out, fingerprintLine{it.Product.SKU, it.Quantity, it.Product.Price, it.Product.Currency})
		}
	}
	if code := orderPromo(c); code != "" {
		out = append(out, promoFingerprintLine(code, c.Promo.Discount, c.Promo.Currency))
	}
	return out
}

func orderFingerprintLines(o *catalog.Order) []fingerprintLine {
	out := make([]fingerprintLine, len(o.Items))
	for i, it := range o.Items {
		out[i] = fingerprintLine{it.SKU, it.Quantity, it.UnitPrice, o.Currency}
	}
	if o.DiscountCents > 0 {
		out = append(out, promoFingerprintLine(o.PromoCode, o.DiscountCents, o.Currency))
	}
	return out
}

// fingerprint is the sha256 of what the shopper confirms: every line with
// its quantity and unit price, the delivery and its price, the total and
// currency, and the contact.
func fingerprint(lines []fingerprintLine, ct checkoutContact, dl deliveryLine) string {
	lines = append([]fingerprintLine(nil), lines...)
	sort.Slice(lines, func(i, j int) bool { return lines[i].SKU < lines[j].SKU })
	var total int64
	currency := ""
	for _, l := range lines {
		total += l.UnitPrice * int64(l.Qty)
		if currency == "" {
			currency = l.Currency
		}
	}
	total += dl.Price
	b, _ := json.Marshal(struct { // a struct of strings and numbers always marshals
		Lines    []fingerprintLine `json:"lines"`
		Delivery deliveryLine      `json:"delivery"`
		Total    int64             `json:"total"`
		Currency string            `json:"currency"`
		Contact  checkoutContact   `json:"contact"`
	}{lines, dl, total, currency, ct})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// confirmProblem says why a confirmation cannot place the order, or "".
func confirmProblem(s *session.Session, fp string) string {
	st := s.State.Checkout
	switch {
	case st == nil || st.Summary == "" || st.SummaryTurn == s.DedupKey:
		return reasonUnseen
	case st.Summary != fp:
		return ReasonChanged
	}
	return ""
}

// showSummary saves the contact and asks the shopper to confirm the cart
// as it is now; only a later turn can confirm it.
func showSummary(ctx context.Context, d *Deps, s *session.Session, cart *catalog.Cart, ct checkoutContact, dq *deliveryQuote, fp, reason string) (toolkit.Result, error) {
	contact := catalog.Contact{Name: ct.Name, Phone: ct.Phone, Address: ct.Address, Email: firstNonEmpty(ct.Email, s.Customer.Email)}
	key := s.Effects().EffectKey("contact", toolkit.JSON(contact))
	_, err := d.Apply(ctx, s, key, func(ctx context.Context, w toolkit.Writes) (*view.Notice, error) {
		return nil, w.SaveContact(ctx, s.Customer.ID, contact)
	})
	if err != nil {
		return toolkit.Result{}, err
	}
	s.Customer.Contact = contact
	st := &session.CheckoutState{
		Awaiting: "confirm", Name: ct.Name, Phone: ct.Phone, Address: ct.Address, Email: ct.Email,
		Summary: fp, SummaryTurn: s.DedupKey, Delivery: dq.line().Name,
	}
	if prev := s.State.Checkout; prev != nil {
		st.NoPromo, st.NoPromoReason = prev.NoPromo, prev.NoPromoReason
	}
	s.State.Checkout = st
	cv := view.CartViewOf(cart, s.Currency)
	data := toolkit.CartDataOf(cv)
	summary := &checkoutSummary{Lines: data.Lines, Promo: data.Promo, Total: data.Total, Contact: ct}
	if dq != nil {
		summary.Subtotal, summary.Delivery = data.Total, dq.Name
		summary.DeliveryPrice = view.DeliveryPriceText(dq.Price, cv.Currency)
		summary.Total = catalog.FormatPrice(cv.Total+dq.Price, cv.Currency)
	}
	return toolkit.Result{
		Data: checkoutData{
			Status:      "confirm",
			Summary:     summary,
			Reason:      reason,
			Instruction: "show this summary to the shopper and ask them to confirm",
		},
		Cart: cv,
		Buttons: []view.Button{
			view.NewButton(toolkit.Label(s, toolkit.BtnConfirm), view.Action{Kind: view.ActConfirm}),
			view.NewButton(toolkit.Label(s, toolkit.BtnEditCart), view.Action{Kind: view.ActCart}),
		},
	}, nil
}

// refreshSummary shows the summary of the cart as it is now, after the
// order transaction found it changed (reason says how).
func refreshSummary(ctx context.Context, d *Deps, s *session.Session, ct checkoutContact, reason string) (toolkit.Result, error) {
	cart, err := d.Carts().Cart(ctx, s.Scope)
	if err != nil {
		return toolkit.Result{}, err
	}
	if len(cart.Items) == 0 {
		return toolkit.Result{}, fmt.Errorf("%w: add products before checking out", catalog.ErrEmptyCart)
	}
	declinedPromo(s, cart)
	dq, ask, err := checkoutDelivery(ctx, d, s, cart, ct, "")
	if err != nil || ask != nil {
		return derefResult(ask), err
	}
	return showSummary(ctx, d, s, cart, ct, dq, fingerprint(cartFingerprintLines(cart), ct, dq.line()), reason)
}

// orderEffect is the journal key of a turn's order: one per turn, since
// the order is idempotent on the turn's key.
const orderEffect = "order"

// placeConfirmed places the order in a transaction that rolls back unless
// the order holds exactly the lines, prices and contact of the confirmed
// summary: the cart may change between the check and the order (a shared
// cart has several writers). The order's notice to the merchant is kept
// in the journal with it and delivered after the commit.
func placeConfirmed(ctx context.Context, d *Deps, s *session.Session, ct checkoutContact, dq *deliveryQuote, fp, promo string) (*catalog.Order, error) {
	var order *catalog.Order
	applied, err := d.Apply(ctx, s, orderEffect, func(ctx context.Context, w toolkit.Writes) (*view.Notice, error) {
		o, err := w.PlaceOrder(ctx, catalog.OrderRequest{
			IdempotencyKey: s.IdempotencyKey(), Scope: s.Scope, CustomerID: s.Customer.ID,
			Channel: s.Channel, ChatID: s.ChatID, ThreadID: s.ThreadID,
			Contact:   catalog.Contact{Name: ct.Name, Phone: ct.Phone, Address: ct.Address, Email: firstNonEmpty(ct.Email, s.Customer.Email)},
			Delivery:  dq.request(),
			PromoCode: promo,
		})
		if err != nil {
			return nil, err
		}
		placed := checkoutContact{Name: o.ContactName, Phone: o.Phone, Address: o.ShippingAddress}
		if ct.Email != "" {
			placed.Email = o.Email
		}
		if fingerprint(orderFingerprintLines(o), placed, deliveryLine{o.DeliveryMethod, o.DeliveryCents}) != fp {
			return nil, errSummaryStale
		}
		order = o
		return &view.Notice{
			Kind: view.NoticeOrderPlaced, Where: s.Conversation.Key(), ConversationID: s.Conversation.ID,
			Customer: s.Customer.DisplayName, Order: view.OrderViewOf(o),
		}, nil
	})
	if err != nil || applied {
		return order, err
	}
	// A concurrent run of the same turn placed it.
	return d.Orders().OrderByKey(ctx, s.IdempotencyKey())
}

func orderPlaced(s *session.Session, o *catalog.Order) toolkit.Result {
	s.State.Checkout = nil
	return toolkit.Result{
		Data: checkoutData{Status: "placed", Order: &placedOrder{
			Number: o.Number, Total: catalog.FormatPrice(o.Total, o.Currency), Status: string(o.Status),
		}},
		Order: view.OrderViewOf(o),
	}
}

// orderStockError names the product that ran out between the summary and
// the order; nothing was ordered.
func orderStockError(ctx context.Context, d *Deps, s *session.Session, err error) error {
	cart, cerr := d.Carts().Cart(ctx, s.Scope)
	if cerr != nil {
		return err
	}
	for _, it := range cart.Items {
		p := it.Product
		if p == nil || (p.Active && p.Stock >= it.Quantity) {
			continue
		}
		if !p.Active || p.Stock == 0 {
			return toolkit.Errorf("no order was placed: %s (%s) is out of stock; remove it from the cart", p.Title, p.SKU)
		}
		return toolkit.Errorf("no order was placed: only %d of %s (%s) left, the cart has %d; lower the quantity",
			p.Stock, p.Title, p.SKU, it.Quantity)
	}
	return toolkit.Errorf("no order was placed: %s", strings.ReplaceAll(err.Error(), "catalog: ", ""))
}
