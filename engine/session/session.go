package session

import (
	"encoding/json"
	"slices"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/search/analysis"
	"shopbot/engine/view"
)

// Session is what a tool knows about who is asking. The engine builds it
// from the platform-verified turn; tools take identity and cart scope from
// here and never from their arguments.
type Session struct {
	// The turn, as the engine received it from an adapter.
	Channel  string       // telegram, slack, web, console
	ChatID   string       // the chat (DM, group, channel)
	ThreadID string       // Slack thread, else empty
	Locale   string       // the platform locale, e.g. "en", "ru"; may be empty
	Text     string       // what the shopper wrote; empty for a button press
	Action   *view.Action // the button pressed, if any
	// DedupKey identifies the turn (engine.Turn.DedupKey); the turn's
	// effects are journaled under it (journal.go).
	DedupKey string

	Customer     *catalog.Customer
	Conversation *catalog.Conversation
	Scope        catalog.CartScope // personal, or the chat's shared cart
	State        *State            // memory across turns, saved after the turn
	Currency     string            // the shop currency
	Now          time.Time
	// OpenCart is the cart's summary as the turn opened, when the opening
	// statement read it (Postgres); the first system prompt uses it and
	// clears it, so a later one reads the cart as tools left it.
	OpenCart *catalog.CartSummary
	// Journal is the turn's view of the effects journal (journal.go),
	// shared by the copies of the session concurrent tools work on; nil
	// gets one on first use.
	Journal *Journal
}

// IdempotencyKey derives the order key from the turn: a replayed platform
// update yields the same key, so checkout cannot create a second order.
func (s *Session) IdempotencyKey() string {
	return s.Channel + ":" + s.ChatID + ":" + s.DedupKey
}

// State is the engine's memory of a conversation, kept in the
// conversation row as JSON.
type State struct {
	// Shown lists the SKUs of the cards last shown, in order, so "the
	// second one" and "add 2 of the first" resolve.
	Shown []string `json:"shown,omitempty"`
	// ShownCards is what the shopper saw of each card of Shown (title,
	// brand, price, rating), so "the cheapest", "the best rated", "the
	// glass one" resolve without reading the catalog again.
	ShownCards []ShownCard `json:"shown_cards,omitempty"`
	// Focus is the product the conversation is about ("this one").
	Focus string `json:"focus,omitempty"`
	// Listing is the list that produced Shown (or the orders last
	// listed), so "show more" and the More button continue it (paging.go);
	// nil when Shown came from another tool.
	Listing *Listing `json:"listing,omitempty"`
	// Checkout is an order being prepared, if any.
	Checkout *CheckoutState `json:"checkout,omitempty"`
	// Lang is the language the shopper last wrote in ("en", "ru"), so a
	// button press, which has no text, is answered in it.
	Lang string `json:"lang,omitempty"`
	// Done holds the DedupKeys of the conversation's last turns, so a
	// turn an adapter delivers again (resumed after a crash or a deploy)
	// is not answered, nor its cart change made, twice.
	Done []string `json:"done,omitempty"`
	// Pending is a write the planner asked the shopper to confirm
	// ("cancel_order:SB-…"), kept for the next message only.
	Pending string `json:"pending,omitempty"`
	// Agent holds the replies to an agent's last writes by idempotency
	// key (agent.go), so the same key twice has one effect and one
	// result.
	Agent []AgentCall `json:"agent,omitempty"`
}

// ShownCard is one card of State.Shown as the shopper saw it.
type ShownCard struct {
	SKU    string  `json:"sku"`
	Title  string  `json:"title"`
	Brand  string  `json:"brand,omitempty"`
	Price  int64   `json:"price"` // minor units
	Rating float64 `json:"rating,omitempty"`
	// Category is the card's category path: "anything cheaper?" with
	// nothing cheaper under the same words looks in it.
	Category string `json:"category,omitempty"`
}

// Listing is a list as the shopper last paged through it: its kind, its
// arguments, where the next page starts and how many it holds.
type Listing struct {
	// Kind is ListSearch ("" in older state), ListCategory, ListSimilar,
	// ListTop or ListOrders (paging.go).
	Kind     string  `json:"kind,omitempty"`
	SKU      string  `json:"sku,omitempty"` // ListSimilar: the product
	Query    string  `json:"query,omitempty"`
	Category string  `json:"category,omitempty"`
	MinPrice float64 `json:"min_price,omitempty"`
	MaxPrice float64 `json:"max_price,omitempty"`
	Sort     string  `json:"sort,omitempty"`
	// Options is a search's variant option filter ("size": "42").
	Options map[string]string `json:"options,omitempty"`
	Offset  int               `json:"offset,omitempty"` // where the next page starts
	// Total is how many the list holds; for lists the backend does not
	// count (similar, orders), one past the last shown when more remain.
	Total int `json:"total,omitempty"`
	// Exact: only the products with every word of the query were shown,
	// and later pages keep to them.
	Exact bool `json:"exact,omitempty"`
}

// KeepDone is how many turns' keys State.Done keeps: a turn delivered
// again within this many later turns is not answered twice.
const KeepDone = 16

// Handled reports whether the turn of key has been handled.
func (st *State) Handled(key string) bool { return slices.Contains(st.Done, key) }

// MarkDone records key as handled, forgetting the oldest beyond keepDone.
func (st *State) MarkDone(key string) {
	if key == "" || st.Handled(key) {
		return
	}
	st.Done = append(st.Done, key)
	if n := len(st.Done) - KeepDone; n > 0 {
		st.Done = slices.Delete(st.Done, 0, n)
	}
}

// CheckoutState tracks a checkout across turns.
type CheckoutState struct {
	// Awaiting is the contact field the shopper was just asked for
	// ("name", "phone", "address"), or "confirm" after the summary.
	Awaiting string `json:"awaiting,omitempty"`
	Name     string `json:"name,omitempty"`
	Phone    string `json:"phone,omitempty"`
	Address  string `json:"address,omitempty"`
	// Email is an agent buyer's e-mail (the agent door's checkout).
	Email string `json:"email,omitempty"`
	// Summary fingerprints the cart and contact the shopper was shown
	// (cart lines, prices, contact); confirm must match it.
	Summary string `json:"summary,omitempty"`
	// SummaryTurn is the DedupKey of the turn that showed the summary:
	// a confirmation in that same turn did not follow a summary the
	// shopper saw.
	SummaryTurn string `json:"summary_turn,omitempty"`
	// Delivery is the delivery method chosen (its name); Options the
	// methods offered while Awaiting is "delivery".
	Delivery string           `json:"delivery,omitempty"`
	Options  []DeliveryChoice `json:"delivery_options,omitempty"`
	// NoPromo is the cart's code the order failed to redeem (used up,
	// expired meanwhile): the summary is shown without it, and the order
	// goes through without it once the shopper confirms that.
	NoPromo       string `json:"no_promo,omitempty"`
	NoPromoReason string `json:"no_promo_reason,omitempty"`
}

// LoadState decodes a conversation's state; broken state starts afresh
// rather than failing the turn.
func LoadState(raw string) *State {
	st := new(State)
	if raw != "" {
		_ = json.Unmarshal([]byte(raw), st)
	}
	return st
}

// Encode is the state as JSON, for the conversation row.
func (st *State) Encode() string {
	b, err := json.Marshal(st)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// Remember records the cards just shown.
func (st *State) Remember(cards []view.Card) {
	if len(cards) == 0 {
		return
	}
	st.Shown, st.ShownCards, st.Listing = st.Shown[:0], st.ShownCards[:0], nil
	for _, c := range cards {
		st.Shown = append(st.Shown, c.SKU)
		st.ShownCards = append(st.ShownCards, ShownCard{SKU: c.SKU, Title: c.Title, Brand: c.Brand, Price: c.Price, Rating: c.Rating, Category: c.Category})
	}
	if len(cards) == 1 {
		st.Focus = cards[0].SKU
	}
}

// Lang is the shopper's language: of this turn's text, else the one they
// last wrote in, else the platform locale's.
func (s *Session) Lang() string {
	if s.Text != "" {
		return analysis.DetectLang(s.Text, s.Locale, s.State.Checkout != nil)
	}
	if s.State.Lang != "" {
		return s.State.Lang
	}
	return analysis.DetectLang("", s.Locale, false)
}
