package restock_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/importer"
	"shopbot/engine/restock"
	"shopbot/engine/view"
)

// notifier records notices; chats listed in blocked answer as a Telegram
// chat that blocked the bot, those in failing with a transient error.
type notifier struct {
	mu      sync.Mutex
	got     []view.Notice
	blocked map[string]bool
	failing map[string]bool
}

func (n *notifier) Notify(ctx context.Context, nt view.Notice) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch {
	case n.blocked[nt.Where.ChatID]:
		return fmt.Errorf("%w: telegram: 403 Forbidden: bot was blocked by the user", view.ErrUnreachable)
	case n.failing[nt.Where.ChatID]:
		return errors.New("telegram: 502 Bad Gateway")
	}
	n.got = append(n.got, nt)
	return nil
}

func (n *notifier) perChat() map[string]int {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := map[string]int{}
	for _, nt := range n.got {
		out[nt.Where.ChatID]++
	}
	return out
}

// clock is an injected clock tests move by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

var start = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func setup(t *testing.T, db bun.IDB, skus ...string) {
	t.Helper()
	var ins []catalog.ProductInput
	for _, s := range skus {
		in := catalog.ProductInput{SKU: s, Title: "Lamp " + s, Price: 1999, Currency: "USD", Stock: 0}
		if err := in.Validate(); err != nil {
			t.Fatal(err)
		}
		ins = append(ins, in)
	}
	if _, err := catalog.UpsertProducts(context.Background(), db, ins); err != nil {
		t.Fatal(err)
	}
}

// subscribe makes n shoppers on Telegram (chats c0, c1, …) ask for sku.
func subscribe(t *testing.T, db bun.IDB, sku string, n int, now time.Time) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: "telegram", PlatformUserID: fmt.Sprint(i), DisplayName: fmt.Sprint("Shopper ", i)})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = catalog.SubscribeStockAlert(ctx, db, catalog.StockAlertRequest{
			CustomerID: c.ID, SKU: sku, Now: now, Locale: "en",
			Where: catalog.ConversationKey{Channel: "telegram", ChatID: fmt.Sprint("c", i)},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func restockBy(t *testing.T, db *bun.DB, how, sku string) {
	t.Helper()
	ctx := context.Background()
	switch how {
	case "edit": // the admin product form: an upsert in a transaction
		err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			_, err := catalog.UpsertProducts(ctx, tx, []catalog.ProductInput{{SKU: sku, Title: "Lamp " + sku, Price: 1999, Currency: "USD", Stock: 3,
				Attributes: map[string]string{}, ImageURLs: []string{}}})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	case "import":
		csv := "sku,title,price,currency,stock\n" + sku + ",Lamp " + sku + ",19.99,USD,3\n"
		sum, err := importer.Import(ctx, db, strings.NewReader(csv), "restock.csv", importer.Options{})
		if err != nil || sum.Failed != 0 {
			t.Fatalf("import = %v, %v", sum, err)
		}
	}
}

// A restock by admin edit or by import sends each subscriber one message,
// in their chat, with the product to add; running again sends nothing.
func TestRestockNotifiesOnce(t *testing.T) {
	for _, how := range []string{"edit", "import"} {
		t.Run(how, func(t *testing.T) {
			catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
				ctx := context.Background()
				setup(t, db, "L-1")
				subscribe(t, db, "L-1", 3, start)
				n := &notifier{}
				clk := &clock{t: start}
				w := &restock.Worker{DB: db, Notifier: n, Now: clk.Now}
				if r, err := w.RunOnce(ctx); err != nil || r.Sent != 0 {
					t.Fatalf("before the restock: %+v, %v", r, err)
				}
				restockBy(t, db, how, "L-1")
				r, err := w.RunOnce(ctx)
				if err != nil || r.Sent != 3 {
					t.Fatalf("round = %+v, %v", r, err)
				}
				clk.Add(time.Hour)
				if r, err := w.RunOnce(ctx); err != nil || r.Sent != 0 {
					t.Fatalf("second round = %+v, %v", r, err)
				}
				per := n.perChat()
				if len(per) != 3 || per["c0"] != 1 || per["c1"] != 1 || per["c2"] != 1 {
					t.Fatalf("notices per chat = %v", per)
				}
				nt := n.got[0]
				if nt.Kind != view.NoticeBackInStock || nt.Product == nil || nt.Product.SKU != "L-1" || !nt.Product.InStock || nt.Where.Channel != "telegram" || nt.Customer == "" {
					t.Errorf("notice = %+v", nt)
				}
			})
		})
	}
}

// Two workers, as two replicas, run at once on one database: each
// subscriber still gets exactly one message.
func TestRestockTwoWorkers(t *testing.T) {
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		ctx := context.Background()
		setup(t, dbs[0], "L-1")
		const shoppers = 30
		subscribe(t, dbs[0], "L-1", shoppers, start)
		restockBy(t, dbs[0], "edit", "L-1")
		n := &notifier{}
		clk := &clock{t: start.Add(time.Minute)}
		var wg sync.WaitGroup
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w := &restock.Worker{DB: dbs[i], Notifier: n, Now: clk.Now, Batch: 4}
				for {
					r, err := w.RunOnce(ctx)
					if err != nil {
						t.Error(err)
						return
					}
					if r.Sent == 0 {
						return
					}
				}
			}()
		}
		wg.Wait()
		per := n.perChat()
		if len(per) != shoppers {
			t.Fatalf("%d chats notified, want %d", len(per), shoppers)
		}
		for chat, k := range per {
			if k != 1 {
				t.Errorf("chat %s got %d messages", chat, k)
			}
		}
	})
}

// A chat that blocked the bot is marked and never tried again; a
// transient failure is retried after the delay, then given up.
func TestRestockBlockedAndRetried(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		setup(t, db, "L-1")
		subscribe(t, db, "L-1", 3, start)
		restockBy(t, db, "edit", "L-1")
		n := &notifier{blocked: map[string]bool{"c0": true}, failing: map[string]bool{"c1": true}}
		clk := &clock{t: start}
		w := &restock.Worker{DB: db, Notifier: n, Now: clk.Now, RetryDelay: time.Minute, MaxAttempts: 2}
		r, err := w.RunOnce(ctx)
		if err != nil || r.Sent != 1 || r.Blocked != 1 || r.Retried != 1 {
			t.Fatalf("round = %+v, %v", r, err)
		}
		delete(n.blocked, "c0") // even if the chat would now accept it, it is not retried
		if r, _ := w.RunOnce(ctx); r.Sent+r.Retried+r.Blocked != 0 {
			t.Fatalf("retried before the delay: %+v", r)
		}
		clk.Add(2 * time.Minute)
		if r, _ := w.RunOnce(ctx); r.Retried != 1 || r.Sent != 0 {
			t.Fatalf("retry round = %+v", r)
		}
		clk.Add(2 * time.Minute)
		if r, _ := w.RunOnce(ctx); r.Sent+r.Retried+r.Blocked != 0 {
			t.Fatalf("after giving up: %+v", r)
		}
		states := map[string]catalog.StockAlertState{}
		for i := range 3 {
			c, _ := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: "telegram", PlatformUserID: fmt.Sprint(i)})
			a, err := catalog.GetStockAlert(ctx, db, c.ID, "L-1")
			if err != nil {
				t.Fatal(err)
			}
			states[a.ChatID] = a.State
		}
		if states["c0"] != catalog.AlertBlocked || states["c1"] != catalog.AlertFailed || states["c2"] != catalog.AlertSent {
			t.Errorf("states = %v", states)
		}
	})
}

// An alert lasts 60 days by the injected clock: a restock after that
// sends nothing.
func TestRestockExpiry(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		setup(t, db, "L-1", "L-2")
		subscribe(t, db, "L-1", 1, start)
		subscribe(t, db, "L-2", 1, start.Add(24*time.Hour))
		n := &notifier{}
		clk := &clock{t: start.Add(catalog.StockAlertTTL)}
		w := &restock.Worker{DB: db, Notifier: n, Now: clk.Now}
		if r, err := w.RunOnce(ctx); err != nil || r.Expired != 1 {
			t.Fatalf("round at 60 days = %+v, %v", r, err)
		}
		restockBy(t, db, "edit", "L-1")
		restockBy(t, db, "edit", "L-2")
		r, err := w.RunOnce(ctx)
		if err != nil || r.Sent != 1 || len(n.got) != 1 || n.got[0].Product.SKU != "L-2" {
			t.Fatalf("round = %+v, %v, notices %+v", r, err, n.got)
		}
	})
}
