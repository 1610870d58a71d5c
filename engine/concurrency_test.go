package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine/view"
)

// TestParallelToolsAddUp: two add_to_cart calls for one SKU in one model
// reply run concurrently; the quantity is their sum, and the reply shows
// one cart, the one both left.
func TestParallelToolsAddUp(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		r := newCrashRig(t, db)
		for i := range 10 {
			user := fmt.Sprint("par-", i)
			ev, err := r.handle(user, "add two, twice", "k")
			if err != nil {
				t.Fatal(err)
			}
			wantCart(t, r, user, map[string]int{"SHO-RUN-001-42": 4})
			carts := ev.of(EventCart)
			if len(carts) != 1 || carts[0].Cart.Units != 4 {
				t.Fatalf("%s: cart events %+v, want one showing 4 units", user, carts)
			}
		}
		// The model read the final cart in both results too.
		for _, m := range r.transcriptOf(t, "par-0") {
			if m.Role == catalog.RoleTool && !strings.Contains(m.Content, `"units":4`) {
				t.Errorf("tool result the model read: %s", m.Content)
			}
		}
	})
}

func (r *crashRig) transcriptOf(t *testing.T, user string) []catalog.Message {
	t.Helper()
	ctx := context.Background()
	c, err := catalog.ResolveCustomer(ctx, r.db, catalog.Identity{Channel: "web", PlatformUserID: user})
	if err != nil {
		t.Fatal(err)
	}
	conv, err := catalog.OpenConversation(ctx, r.db, catalog.ConversationKey{Channel: "web", ChatID: user}, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := catalog.RecentMessages(ctx, r.db, conv.ID, 50)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// addPress is an Add button pressed in thread i of a shared channel cart.
func addPress(channel string, i int, sku string) Turn {
	return Turn{Channel: "slack", ChatID: channel, ThreadID: fmt.Sprint("t", i), UserID: fmt.Sprint("U", i%7),
		UserName: "Teammate", Shared: true, DedupKey: fmt.Sprint("press-", i),
		Action: &view.Action{Kind: view.ActAdd, SKU: sku, Qty: 1}}
}

func newButtonEngine(t *testing.T, db *bun.DB) *Engine {
	t.Helper()
	eng, err := New(Config{DB: db, Search: searchtest.NewDatabase(db), Registry: prometheus.NewRegistry(),
		RateLimit: 1 << 30, Now: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// TestSharedCartConcurrentPresses: 40 Add presses at once in the threads of
// one Slack channel (threads run in parallel and share the channel cart)
// all count, and the last reply shows all of them.
func TestSharedCartConcurrentPresses(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		if err := catalog.SetStock(ctx, db, "SHO-RUN-001-42", 500); err != nil {
			t.Fatal(err)
		}
		eng := newButtonEngine(t, db)
		const presses = 40
		shown := make([]int, presses)
		var wg sync.WaitGroup
		for i := range presses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ev := &events{}
				if err := eng.Handle(ctx, addPress("C1", i, "SHO-RUN-001-42"), ev); err != nil {
					t.Errorf("press %d: %v", i, err)
				}
				if carts := ev.of(EventCart); len(carts) == 1 {
					shown[i] = carts[0].Cart.Units
				}
			}()
		}
		wg.Wait()
		cart, err := catalog.GetCart(ctx, db, catalog.SharedCart("slack", "C1"))
		if err != nil {
			t.Fatal(err)
		}
		if cart.Count() != presses {
			t.Errorf("channel cart has %d units after %d presses", cart.Count(), presses)
		}
		if most := max(0, maxOf(shown)); most != presses {
			t.Errorf("the latest reply showed %d units, want %d", most, presses)
		}
	})
}

func maxOf(xs []int) int {
	m := xs[0]
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// TestReplicasAddConcurrently: three engines (replicas) on one Postgres
// database take 1,000 Add presses at once, spread over 10 channel carts
// and 4 products (25 per line, within stock and the 99 limit), then every
// press is delivered again to another replica: 0 lost, 0 twice.
func TestReplicasAddConcurrently(t *testing.T) {
	db, _ := catalogtest.PostgresDemo(t)
	ctx := context.Background()
	skus := []string{"SHO-RUN-001-42", "SHO-RUN-002-39", "APP-JKT-001-NAVY-L", "SHO-RUN-004-42"}
	for _, sku := range skus {
		if err := catalog.SetStock(ctx, db, sku, 1000); err != nil {
			t.Fatal(err)
		}
	}
	engs := []*Engine{newButtonEngine(t, db), newButtonEngine(t, db), newButtonEngine(t, db)}
	const presses = 1000
	press := func(i int) Turn { return addPress(fmt.Sprint("C", i%10), i, skus[(i/10)%4]) }
	run := func(replica func(i int) *Engine, want error) {
		work := make(chan int)
		var wg sync.WaitGroup
		for range 48 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range work {
					err := replica(i).Handle(ctx, press(i), &events{})
					if !errors.Is(err, want) {
						t.Errorf("press %d: err = %v, want %v", i, err, want)
					}
				}
			}()
		}
		for i := range presses {
			work <- i
		}
		close(work)
		wg.Wait()
	}
	run(func(i int) *Engine { return engs[i%3] }, nil)
	run(func(i int) *Engine { return engs[(i+1)%3] }, ErrReplayed)
	total := 0
	for c := range 10 {
		cart, err := catalog.GetCart(ctx, db, catalog.SharedCart("slack", fmt.Sprint("C", c)))
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range cart.Items {
			if it.Quantity != presses/40 {
				t.Errorf("C%d %s: %d units, want %d", c, it.Product.SKU, it.Quantity, presses/40)
			}
			total += it.Quantity
		}
	}
	if total != presses {
		t.Errorf("%d units in all carts after %d presses", total, presses)
	}
}
