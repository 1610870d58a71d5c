package eval

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/sandbox"
	"shopbot/engine"
	"shopbot/engine/outcome"
)

// Stored is a conversation as the shop recorded it, to replay.
type Stored struct {
	ID       int64
	Key      catalog.ConversationKey
	Customer *catalog.Customer // nil: none recorded
	Messages []catalog.Message
	// Turns are the indexes (0-based) of the shopper turns to replay;
	// the others are history only.
	Turns []int
}

// maxStoredMessages bounds the transcript read of one conversation.
const maxStoredMessages = 100_000

// LoadStored reads conversation id from db (the shop: only read) and
// selects its turns whose shopper message is at or after since, at most
// limit of them (0: all).
func LoadStored(ctx context.Context, db bun.IDB, id int64, since time.Time, limit int) (*Stored, error) {
	c, err := catalog.GetConversation(ctx, db, id)
	if err != nil {
		return nil, err
	}
	ms, err := catalog.RecentMessages(ctx, db, id, maxStoredMessages)
	if err != nil {
		return nil, err
	}
	s := &Stored{ID: id, Key: c.Key(), Messages: ms}
	if c.CustomerID != nil {
		if s.Customer, err = catalog.GetCustomer(ctx, db, *c.CustomerID); err != nil {
			return nil, err
		}
	}
	for k, t := range splitTurns(ms) {
		if limit > 0 && len(s.Turns) == limit {
			break
		}
		if !ms[t.start].CreatedAt.Before(since) {
			s.Turns = append(s.Turns, k)
		}
	}
	return s, nil
}

// Replayer replays stored conversations against the current
// configuration, each in its own copy of the shop (doc.go).
type Replayer struct {
	Template  *sandbox.Template
	NewEngine func(db *bun.DB) (Handler, error)
	Parallel  int // conversations at once (default 4)
	// Progress, when set, is called after each conversation with the
	// turns replayed so far; calls may come from several goroutines.
	Progress func(done int)
}

// Replayed is one replayed turn: what happened then and now.
type Replayed struct {
	Conversation int64           `json:"conversation"`
	Turn         int             `json:"turn"` // 1-based, in the whole conversation
	Input        string          `json:"input"`
	Then         outcome.Outcome `json:"then"`
	Now          outcome.Outcome `json:"now"`
	Changes      outcome.Changes `json:"changes"`
	Error        string          `json:"error,omitempty"` // the replay could not run the turn
}

// Replay runs every selected turn of convs and returns them in the order
// given, whatever order the conversations finished in.
func (r *Replayer) Replay(ctx context.Context, convs []*Stored) (*ReplayReport, error) {
	par := r.Parallel
	if par <= 0 {
		par = 4
	}
	out := make([][]Replayed, len(convs))
	var done atomic.Int64
	sem := make(chan struct{}, par)
	var wg sync.WaitGroup
	for i, c := range convs {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i] = r.replayOne(ctx, c)
			n := done.Add(int64(len(out[i])))
			if r.Progress != nil {
				r.Progress(int(n))
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep := &ReplayReport{}
	for _, turns := range out {
		for _, t := range turns {
			rep.add(t)
		}
	}
	return rep, nil
}

// replayOne replays a conversation's selected turns in order in one copy
// of the shop; a failure to set the copy up marks every turn.
func (r *Replayer) replayOne(ctx context.Context, c *Stored) []Replayed {
	var out []Replayed
	err := r.inCopy(ctx, func(db *bun.DB, h Handler) error {
		var err error
		out, err = replayTurns(ctx, db, h, c)
		return err
	})
	if err != nil {
		turns := splitTurns(c.Messages)
		out = out[:0]
		for _, k := range c.Turns {
			out = append(out, Replayed{Conversation: c.ID, Turn: k + 1, Input: c.Messages[turns[k].start].Content, Error: err.Error()})
		}
	}
	return out
}

// inCopy runs fn on a fresh copy of the shop with its engine, as a
// scenario runs.
func (r *Replayer) inCopy(ctx context.Context, fn func(db *bun.DB, h Handler) error) error {
	return (&Runner{Template: r.Template, NewEngine: r.NewEngine}).inSandbox(ctx, fn)
}

// replayTurns replays c's selected turns. The shopper is one customer of
// the copy with the stored customer's identity; each turn gets a new chat
// holding the stored history before it, the engine's state as the
// previous replayed turn left it, and the cart and contact details as
// they were then (applyCart, contactBefore).
func replayTurns(ctx context.Context, db *bun.DB, h Handler, c *Stored) ([]Replayed, error) {
	id := catalog.Identity{Channel: c.Key.Channel, PlatformUserID: fmt.Sprintf("replay-%d", c.ID)}
	if c.Customer != nil {
		id = catalog.Identity{Channel: c.Customer.Channel, PlatformUserID: c.Customer.PlatformUserID,
			DisplayName: c.Customer.DisplayName, Username: c.Customer.Username, Locale: c.Customer.Locale}
	}
	cust, err := catalog.ResolveCustomer(ctx, db, id)
	if err != nil {
		return nil, err
	}
	turns := splitTurns(c.Messages)
	selected := map[int]bool{}
	for _, k := range c.Turns {
		selected[k] = true
	}
	var out []Replayed
	cart, state := map[string]int{}, ""
	for k, t := range turns {
		msgs := c.Messages[t.start:t.end]
		after := applyCart(cart, msgs)
		if selected[k] {
			rt := Replayed{Conversation: c.ID, Turn: k + 1, Input: msgs[0].Content, Then: turnOutcome(msgs)}
			rt.Then.Cart = after
			now, next, err := replayTurn(ctx, db, h, c, id, cust.ID, k, cart, state)
			if err != nil {
				return out, err
			}
			rt.Now, state = now, next
			rt.Changes = outcome.Compare(maskOrder(rt.Then), maskOrder(rt.Now))
			out = append(out, rt)
		}
		cart = after
	}
	return out, nil
}

// replayTurn runs turn k in a new chat set up as it was then and returns
// its outcome and the engine's state after it.
func replayTurn(ctx context.Context, db *bun.DB, h Handler, c *Stored, id catalog.Identity, customerID int64, k int, cart map[string]int, state string) (outcome.Outcome, string, error) {
	turns := splitTurns(c.Messages)
	key := catalog.ConversationKey{Channel: c.Key.Channel, ChatID: fmt.Sprintf("%s~replay-%d", c.Key.ChatID, k+1), ThreadID: c.Key.ThreadID}
	conv, err := catalog.OpenConversation(ctx, db, key, customerID)
	if err != nil {
		return outcome.Outcome{}, "", err
	}
	if err := setHistory(ctx, db, conv.ID, c.Messages[:turns[k].start], state); err != nil {
		return outcome.Outcome{}, "", err
	}
	if err := setCart(ctx, db, customerID, cart); err != nil {
		return outcome.Outcome{}, "", err
	}
	var saved catalog.Contact
	if c.Customer != nil {
		saved = c.Customer.Contact
	}
	if err := catalog.SaveContact(ctx, db, customerID, contactBefore(c.Messages, turns, k, saved)); err != nil {
		return outcome.Outcome{}, "", err
	}
	text, action := turnInput(c.Messages[turns[k].start])
	in := engine.Turn{Channel: key.Channel, ChatID: key.ChatID, ThreadID: key.ThreadID, UserID: id.PlatformUserID,
		UserName: id.DisplayName, Locale: id.Locale, Text: text, Action: action, DedupKey: fmt.Sprintf("replay-%d-%d", c.ID, k+1)}
	var col outcome.Collector
	herr := h.Handle(ctx, in, &col)
	if ctx.Err() != nil {
		return outcome.Outcome{}, "", ctx.Err()
	}
	ms, err := catalog.RecentMessages(ctx, db, conv.ID, turnMessages)
	if err != nil {
		return outcome.Outcome{}, "", err
	}
	start := 0
	for i, m := range ms {
		if m.Role == catalog.RoleUser {
			start = i
		}
	}
	now := turnOutcome(ms[start:])
	if herr != nil {
		now.Error = herr.Error()
	}
	if now.Cart, err = cartOf(ctx, db, customerID); err != nil {
		return now, "", err
	}
	after, err := catalog.GetConversation(ctx, db, conv.ID)
	if err != nil {
		return now, "", err
	}
	return now, after.State, nil
}

// turnMessages bounds the messages read back of a replayed turn.
const turnMessages = 200

// setHistory writes the stored history into the new chat, and the state.
func setHistory(ctx context.Context, db *bun.DB, convID int64, history []catalog.Message, state string) error {
	ms := make([]*catalog.Message, len(history))
	for i, m := range history {
		m.ID = 0
		ms[i] = &m
	}
	if state == "" {
		return catalog.AppendMessages(ctx, db, convID, ms...)
	}
	_, err := catalog.SaveTurn(ctx, db, convID, state, ms...)
	return err
}

// setCart makes the shopper's cart hold cart. A product no longer in the
// shop or out of stock cannot be put back: the replay reports the cart
// it got.
func setCart(ctx context.Context, db *bun.DB, customerID int64, cart map[string]int) error {
	scope := catalog.PersonalCart(customerID)
	if err := catalog.ClearCart(ctx, db, scope); err != nil {
		return err
	}
	for _, sku := range sortedKeys(cart) {
		_, err := catalog.SetCartQuantity(ctx, db, scope, sku, cart[sku], customerID)
		if err != nil && !errors.Is(err, catalog.ErrNotFound) && !errors.Is(err, catalog.ErrOutOfStock) && !errors.Is(err, catalog.ErrInvalid) {
			return err
		}
	}
	return nil
}

func cartOf(ctx context.Context, db *bun.DB, customerID int64) (map[string]int, error) {
	cart, err := catalog.GetCart(ctx, db, catalog.PersonalCart(customerID))
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, it := range cart.Items {
		if it.Product != nil {
			out[it.Product.SKU] = it.Quantity
		}
	}
	return out, nil
}

func sortedKeys(m map[string]int) []string { return slices.Sorted(maps.Keys(m)) }

// maskOrder hides the order number in the reply: numbers are random, and
// whether an order was placed is compared on its own.
func maskOrder(o outcome.Outcome) outcome.Outcome {
	if o.Order != "" {
		o.Reply = strings.ReplaceAll(o.Reply, o.Order, "(order)")
	}
	return o
}
