package catalog_test

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/dbstats"
)

// TestOpenTurn: a turn opens with the same customer, conversation and
// rate-limit count whichever way it goes: a new customer (resolved, then
// the rest), a known one (one statement; on Postgres it counts the hit), a
// known one whose name changed (stored), and every path counts the turn
// once on Postgres.
func TestOpenTurn(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		pg := db.Dialect().Name().String() == "pg"
		id := catalog.Identity{Channel: "web", PlatformUserID: "u-open", DisplayName: "Ann", Locale: "en"}
		key := catalog.ConversationKey{Channel: "web", ChatID: "chat-open"}
		lim := catalog.Limit{Max: 10, Window: time.Hour}
		now := time.Date(2026, 11, 27, 10, 30, 0, 0, time.UTC)
		counted, _ := dbstats.Install(db) // Bun's own queries counted too

		open := func(id catalog.Identity, key catalog.ConversationKey, wantCount int, wantStatements int64, wantCreated bool) (*catalog.Customer, *catalog.Conversation) {
			t.Helper()
			var c dbstats.Counter
			o, err := catalog.OpenTurn(dbstats.With(ctx, &c), counted, id, key, "turn:", lim, now, false)
			if err != nil {
				t.Fatal(err)
			}
			cust, conv, hit, counted := o.Customer, o.Conversation, o.Hit, o.Counted
			if counted != pg || (pg && (hit.Count != wantCount || !hit.Allowed)) {
				t.Errorf("hit = %+v, counted %v; want count %d on Postgres only", hit, counted, wantCount)
			}
			if wantStatements > 0 && c.Counts().Statements != wantStatements {
				t.Errorf("%d statements, want %d:\n%v", c.Counts().Statements, wantStatements, c.Shapes())
			}
			if o.Created != wantCreated {
				t.Errorf("Created = %v, want %v", o.Created, wantCreated)
			}
			if cust.PlatformUserID != id.PlatformUserID || cust.DisplayName != id.DisplayName || conv.ChatID != key.ChatID ||
				conv.CustomerID == nil || *conv.CustomerID != cust.ID {
				t.Fatalf("opened %+v / %+v for %+v / %+v", cust, conv, id, key)
			}
			return cust, conv
		}
		// A new customer: found missing, then written without a second read
		// (Postgres: the opening statement, then one for the customer, the
		// hit, the conversation and the cart; SQLite: the opening
		// statement, then one transaction for the customer and the
		// conversation, so one wait for the write slot).
		newStatements := int64(5)
		if pg {
			newStatements = 2
		}
		first, conv := open(id, key, 1, newStatements, true)
		again, same := open(id, key, 2, 1, false)
		if again.ID != first.ID || same.ID != conv.ID || !again.CreatedAt.Equal(first.CreatedAt) || again.Locale != "en" {
			t.Errorf("reopened %+v / %+v, want %+v / %+v", again, same, first, conv)
		}
		// A new chat of a known customer: created, counted once.
		other, _ := open(id, catalog.ConversationKey{Channel: "web", ChatID: "chat-open-2"}, 3, 2, true)
		if other.ID != first.ID {
			t.Errorf("another chat resolved customer %d, want %d", other.ID, first.ID)
		}
		// A new name: stored, and the turn still counted once.
		id.DisplayName = "Ann B."
		renamed, _ := open(id, key, 4, 0, false)
		stored, err := catalog.GetCustomer(ctx, db, first.ID)
		if err != nil || renamed.ID != first.ID || stored.DisplayName != "Ann B." {
			t.Errorf("renamed %+v, stored %+v, %v", renamed, stored, err)
		}
		if pg {
			if res, err := catalog.Hit(ctx, db, "turn:"+strconv.FormatInt(first.ID, 10), lim, now); err != nil || res.Count != 5 {
				t.Errorf("the customer's count = %+v, %v; want 5", res, err)
			}
		}
	})
}

// TestOpenTurnCreatesOnce: turns opening the same new chat at once (two
// replicas, say) all get one conversation, and exactly one of them says
// it created it: only that one may take the history as empty. A shared
// chat with two new customers, and a customer's own chat (the new
// customer's paths of both databases: openNew, openNewSQLite).
func TestOpenTurnCreatesOnce(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		lim := catalog.Limit{Max: 100, Window: time.Hour}
		now := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
		const n = 8
		for _, shared := range []bool{true, false} {
			key := catalog.ConversationKey{Channel: "slack", ChatID: "C-race-" + strconv.FormatBool(shared), ThreadID: "1.2"}
			users := 2
			if !shared {
				users = 1
			}
			opened := make([]catalog.TurnOpening, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					id := catalog.Identity{Channel: "slack", PlatformUserID: "U-race-" + strconv.FormatBool(shared) + strconv.Itoa(i%users)}
					opened[i], errs[i] = catalog.OpenTurn(ctx, db, id, key, "turn:", lim, now, shared)
				})
			}
			wg.Wait()
			created := 0
			for i, o := range opened {
				if errs[i] != nil {
					t.Fatal(errs[i])
				}
				if o.Conversation.ID != opened[0].Conversation.ID {
					t.Errorf("shared %v: turn %d opened conversation %d, another %d", shared, i, o.Conversation.ID, opened[0].Conversation.ID)
				}
				if !shared && o.Customer.ID != opened[0].Customer.ID {
					t.Errorf("own chat: turn %d resolved customer %d, another %d", i, o.Customer.ID, opened[0].Customer.ID)
				}
				if o.Created {
					created++
				}
			}
			if created != 1 {
				t.Errorf("shared %v: %d turns say they created the conversation, want 1", shared, created)
			}
		}
	})
}

// TestOpenTurnReadsTheCart: a known customer's opening statement also
// sums the turn's cart, the customer's own or the chat's shared one, as
// SummarizeCart would.
func TestOpenTurnReadsTheCart(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 1250, 10), product("B-1", 400, 10))
		id := catalog.Identity{Channel: "slack", PlatformUserID: "U-cart"}
		key := catalog.ConversationKey{Channel: "slack", ChatID: "C-cart"}
		lim := catalog.Limit{Max: 100, Window: time.Hour}
		now := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
		first, err := catalog.OpenTurn(ctx, db, id, key, "turn:", lim, now, false)
		if err != nil {
			t.Fatal(err)
		}
		own, shared := catalog.PersonalCart(first.Customer.ID), catalog.SharedCart(key.Channel, key.ChatID)
		mustCart(t)(catalog.AddToCart(ctx, db, own, "A-1", 2, first.Customer.ID))
		mustCart(t)(catalog.AddToCart(ctx, db, shared, "B-1", 3, first.Customer.ID))
		for _, tc := range []struct {
			shared bool
			scope  catalog.CartScope
			want   catalog.CartSummary
		}{{false, own, catalog.CartSummary{Units: 2, Total: 2500, Currency: "USD"}}, {true, shared, catalog.CartSummary{Units: 3, Total: 1200, Currency: "USD"}}} {
			o, err := catalog.OpenTurn(ctx, db, id, key, "turn:", lim, now, tc.shared)
			if err != nil {
				t.Fatal(err)
			}
			sum, err := catalog.SummarizeCart(ctx, db, tc.scope)
			if err != nil || sum != tc.want {
				t.Fatalf("SummarizeCart(%s) = %+v, %v; want %+v", tc.scope.Key(), sum, err, tc.want)
			}
			if o.Cart == nil || *o.Cart != tc.want {
				t.Errorf("shared %v: opening's cart = %+v, want %+v", tc.shared, o.Cart, tc.want)
			}
		}
		// A new customer in the chat: its conversation is read, not made
		// again, and on Postgres the same statement sums the shared cart.
		joined, err := catalog.OpenTurn(ctx, db, catalog.Identity{Channel: "slack", PlatformUserID: "U-cart-2"}, key, "turn:", lim, now, true)
		if err != nil || joined.Created || joined.Conversation.ID != first.Conversation.ID || joined.Customer.ID == first.Customer.ID {
			t.Fatalf("new customer in the chat: %+v, %v", joined, err)
		}
		if pg := db.Dialect().Name().String() == "pg"; (pg || joined.Cart != nil) &&
			(joined.Cart == nil || *joined.Cart != (catalog.CartSummary{Units: 3, Total: 1200, Currency: "USD"})) {
			t.Errorf("new customer in the chat: opening's cart = %+v", joined.Cart)
		}
		// An empty cart reads as empty, without a currency.
		if err := catalog.ClearCart(ctx, db, own); err != nil {
			t.Fatal(err)
		}
		if o, err := catalog.OpenTurn(ctx, db, id, key, "turn:", lim, now, false); err != nil || o.Cart == nil || *o.Cart != (catalog.CartSummary{}) {
			t.Errorf("empty cart: opening's cart = %+v, %v", o.Cart, err)
		}
	})
}
