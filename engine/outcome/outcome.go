package outcome

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/engine"
)

// Outcome is what one turn produced.
type Outcome struct {
	Reply      string         `json:"reply"`
	Products   []Product      `json:"products,omitempty"` // listed, in order, repeats removed
	Tools      []ToolCall     `json:"tools,omitempty"`
	ModelCalls int            `json:"model_calls"`
	Cart       map[string]int `json:"cart"`            // SKU → quantity after the turn
	Order      string         `json:"order,omitempty"` // the number of the order the turn placed
	Error      string         `json:"error,omitempty"` // what Handle returned, if anything
}

// Product is a product card as listed in a reply.
type Product struct {
	SKU       string `json:"sku"`
	Title     string `json:"title"`
	Price     int64  `json:"price"` // minor units
	Currency  string `json:"currency"`
	PriceText string `json:"price_text"`
}

// ToolCall is a tool the turn called and its arguments (JSON).
type ToolCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// SKUs lists the SKUs of the products listed, in order.
func (o *Outcome) SKUs() []string {
	out := make([]string, len(o.Products))
	for i, p := range o.Products {
		out[i] = p.SKU
	}
	return out
}

// ToolNames lists the names of the tools called, in order.
func (o *Outcome) ToolNames() []string {
	out := make([]string, len(o.Tools))
	for i, c := range o.Tools {
		out[i] = c.Name
	}
	return out
}

// Collector is a turn's engine.Sink: it keeps the reply and the product
// cards. Tools of one round may send concurrently.
type Collector struct {
	mu       sync.Mutex
	text     strings.Builder
	done     string
	failure  string
	products []Product
	seen     map[string]bool
}

// Send implements engine.Sink.
func (c *Collector) Send(_ context.Context, ev engine.Event) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch ev.Kind {
	case engine.EventText:
		c.text.WriteString(ev.Text)
	case engine.EventDone:
		c.done = ev.Text
	case engine.EventError:
		c.failure = ev.Text
	case engine.EventCards:
		if c.seen == nil {
			c.seen = map[string]bool{}
		}
		for _, card := range ev.Cards {
			if !c.seen[card.SKU] {
				c.seen[card.SKU] = true
				c.products = append(c.products, Product{SKU: card.SKU, Title: card.Title, Price: card.Price, Currency: card.Currency, PriceText: card.PriceText})
			}
		}
	}
	return nil
}

// Outcome returns what the shopper was shown: the whole answer (the done
// event's, else the streamed text), a polite error after it, the products.
func (c *Collector) Outcome() Outcome {
	c.mu.Lock()
	defer c.mu.Unlock()
	reply := c.done
	if reply == "" {
		reply = c.text.String()
	}
	if c.failure != "" {
		reply = strings.TrimSpace(reply + "\n" + c.failure)
	}
	return Outcome{Reply: reply, Products: slices.Clone(c.products)}
}

// Shopper is whose turn it was: the identity and chat of engine.Turn.
type Shopper struct {
	Channel, ChatID, UserID string
}

// State is the shop as a shopper left it after a turn; the zero State is a
// new shopper's.
type State struct {
	Cart      map[string]int
	LastOrder string
}

// turnMessages bounds how many of a conversation's last messages are read
// for the last turn: a turn writes at most a few dozen.
const turnMessages = 200

// Read completes o after the turn from db: the turn's tool and model
// calls, the cart, and the order placed if the newest order is not
// before's. It returns the state after the turn.
func Read(ctx context.Context, db bun.IDB, who Shopper, before State, o *Outcome) (State, error) {
	c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: who.Channel, PlatformUserID: who.UserID})
	if err != nil {
		return State{}, fmt.Errorf("outcome: %w", err)
	}
	conv, err := catalog.OpenConversation(ctx, db, catalog.ConversationKey{Channel: who.Channel, ChatID: who.ChatID}, c.ID)
	if err != nil {
		return State{}, fmt.Errorf("outcome: %w", err)
	}
	ms, err := catalog.RecentMessages(ctx, db, conv.ID, turnMessages)
	if err != nil {
		return State{}, fmt.Errorf("outcome: %w", err)
	}
	o.Tools, o.ModelCalls = FromMessages(ms)
	after := State{Cart: map[string]int{}}
	cart, err := catalog.GetCart(ctx, db, catalog.PersonalCart(c.ID))
	if err != nil {
		return State{}, fmt.Errorf("outcome: %w", err)
	}
	for _, it := range cart.Items {
		if it.Product != nil {
			after.Cart[it.Product.SKU] = it.Quantity
		}
	}
	orders, err := catalog.ListCustomerOrders(ctx, db, c.ID, 1)
	if err != nil && !errors.Is(err, catalog.ErrNotFound) {
		return State{}, fmt.Errorf("outcome: %w", err)
	}
	if len(orders) > 0 {
		after.LastOrder = orders[0].Number
	}
	o.Cart = maps.Clone(after.Cart)
	if after.LastOrder != before.LastOrder {
		o.Order = after.LastOrder
	}
	return after, nil
}

// FromMessages reads the last turn of a transcript (the messages after its
// last shopper message): the tools it called, in order, and its model
// calls.
func FromMessages(ms []catalog.Message) (tools []ToolCall, modelCalls int) {
	start := 0
	for i, m := range ms {
		if m.Role == catalog.RoleUser {
			start = i + 1
		}
	}
	for _, m := range ms[start:] {
		if m.Role != catalog.RoleAssistant {
			continue
		}
		if m.Model != engine.PlannerModel {
			modelCalls++
		}
		for _, c := range m.ToolCalls {
			tools = append(tools, ToolCall{Name: c.Name, Arguments: c.Arguments})
		}
	}
	return tools, modelCalls
}
