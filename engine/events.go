package engine

import (
	"context"
	"errors"
)

// EventKind says what an Event carries.
type EventKind string

const (
	EventText    EventKind = "text"    // Text is the next piece of the answer
	EventCards   EventKind = "cards"   // Cards to show as product cards
	EventButtons EventKind = "buttons" // Buttons as quick replies
	EventCart    EventKind = "cart"    // Cart: the cart after a change or on request
	EventOrder   EventKind = "order"   // Order: a placed order or its status
	EventTyping  EventKind = "typing"  // tools are running; show a typing indicator
	EventDone    EventKind = "done"    // the turn is complete; Text is the whole answer
	EventError   EventKind = "error"   // Text is a polite message for the shopper
)

// Event is one piece of a reply, streamed to the adapter's Sink.
type Event struct {
	Kind    EventKind
	Text    string
	Cards   []Card
	Buttons []Button
	Cart    *CartView
	Order   *OrderView
}

// Sink receives a turn's reply as it is produced. Adapters render each
// event natively (Telegram HTML and inline keyboards, Slack Block Kit,
// SSE JSON, terminal text).
type Sink interface {
	Send(ctx context.Context, ev Event) error
}

// SinkFunc adapts a function to Sink.
type SinkFunc func(ctx context.Context, ev Event) error

// Send implements Sink.
func (f SinkFunc) Send(ctx context.Context, ev Event) error { return f(ctx, ev) }

// Card is a product as the shopper sees it. Every figure comes from the
// catalog, never from model text.
type Card struct {
	SKU         string            `json:"sku"`
	Title       string            `json:"title"`
	Brand       string            `json:"brand,omitempty"`
	Category    string            `json:"category,omitempty"`
	Price       int64             `json:"price"` // minor units
	Currency    string            `json:"currency"`
	PriceText   string            `json:"price_text"` // "$89.99"
	Stock       int               `json:"stock"`
	InStock     bool              `json:"in_stock"`
	Rating      float64           `json:"rating,omitempty"`
	RatingCount int               `json:"rating_count,omitempty"`
	ImageURL    string            `json:"image_url,omitempty"`
	Summary     string            `json:"summary,omitempty"`
	Attributes  map[string]string `json:"attributes,omitempty"`
}

// Button is a quick reply or a card button.
type Button struct {
	Label  string `json:"label"`
	Action Action `json:"-"`
	Data   string `json:"data"` // Action.Encode()
}

// NewButton builds a button for an action.
func NewButton(label string, a Action) Button {
	return Button{Label: label, Action: a, Data: a.Encode()}
}

// CartView is a cart as shown to shoppers.
type CartView struct {
	Shared    bool       `json:"shared"`
	Lines     []CartLine `json:"lines"`
	Units     int        `json:"units"`
	Total     int64      `json:"total"`
	Currency  string     `json:"currency"`
	TotalText string     `json:"total_text"`
}

// CartLine is one product in a cart.
type CartLine struct {
	SKU       string `json:"sku"`
	Title     string `json:"title"`
	Qty       int    `json:"qty"`
	UnitPrice int64  `json:"unit_price"`
	LineTotal int64  `json:"line_total"`
	PriceText string `json:"price_text"` // line total, formatted
	Stock     int    `json:"stock"`
	AddedBy   string `json:"added_by,omitempty"` // shared carts: who added it
}

// OrderView is an order as shown to shoppers.
type OrderView struct {
	Number    string      `json:"number"`
	Status    string      `json:"status"`
	Lines     []OrderLine `json:"lines"`
	Total     int64       `json:"total"`
	Currency  string      `json:"currency"`
	TotalText string      `json:"total_text"`
	CreatedAt string      `json:"created_at"` // RFC 3339
	Tracking  string      `json:"tracking,omitempty"`
}

// OrderLine is one line of an order at the price paid.
type OrderLine struct {
	SKU       string `json:"sku"`
	Title     string `json:"title"`
	Qty       int    `json:"qty"`
	UnitPrice int64  `json:"unit_price"`
}

// ErrRateLimited is returned by Handle after a rate-limited shopper was
// told to slow down, so HTTP adapters can answer 429.
var ErrRateLimited = errors.New("engine: rate limited")

// ErrBadTurn reports a turn an adapter should not have sent (no identity,
// empty or oversized message).
var ErrBadTurn = errors.New("engine: invalid turn")

// ErrReplayed reports a turn whose DedupKey the conversation has handled
// already: an adapter delivered it again (an inbox resumed after a stop, a
// client's retry). Nothing was done or said; chat adapters stay silent.
var ErrReplayed = errors.New("engine: turn already handled")
