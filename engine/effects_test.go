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
	"shopbot/engine/llmtest"
	"shopbot/engine/openai"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

// noteLog is a Notifier that keeps what it is told.
type noteLog struct {
	mu    sync.Mutex
	notes []view.Notice
}

func (n *noteLog) Notify(_ context.Context, nt view.Notice) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.notes = append(n.notes, nt)
	return nil
}

func (n *noteLog) count(kind view.NoticeKind, chatID string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	c := 0
	for _, nt := range n.notes {
		if nt.Kind == kind && nt.Where.ChatID == chatID {
			c++
		}
	}
	return c
}

// crashRig is an engine on the demo shop whose turns a test crashes at a
// chosen step (Config.Crash), with a model that answers each shopper
// message with fixed tool calls and then "Done.".
type crashRig struct {
	*testEnv
	eng   *Engine
	notes *noteLog

	mu      sync.Mutex
	now     time.Time // the engine's clock
	armed   bool      // count steps (only the turn under test)
	crashAt int       // crash at this step, 1-based; 0 never
	steps   []string  // steps seen while armed
}

// scriptedCalls are the tool calls the rig's model makes for a message.
var scriptedCalls = map[string][]llmtest.ToolCall{
	"add two, twice": {
		{Name: "add_to_cart", Arguments: `{"sku":"SHO-RUN-001-42","quantity":2}`},
		{Name: "add_to_cart", Arguments: `{"sku":"SHO-RUN-001-42","quantity":2}`},
	},
	"fill": {
		{Name: "add_to_cart", Arguments: `{"sku":"SHO-RUN-001-42","quantity":3}`},
		{Name: "add_to_cart", Arguments: `{"sku":"SHO-RUN-002-39","quantity":1}`},
	},
	"set and remove": {
		{Name: "update_cart_item", Arguments: `{"sku":"SHO-RUN-001-42","quantity":1}`},
		{Name: "remove_from_cart", Arguments: `{"sku":"SHO-RUN-002-39"}`},
	},
	"add one":    {{Name: "add_to_cart", Arguments: `{"sku":"SHO-RUN-001-42"}`}},
	"my details": {{Name: "checkout", Arguments: `{"name":"Ann Lee","phone":"+1 555 0100","address":"1 Main St, Springfield"}`}},
	"yes, order": {{Name: "checkout", Arguments: `{"confirm":true}`}},
	"a person":   {{Name: "request_human", Arguments: `{"reason":"wants to talk about a refund"}`}},
}

// newCrashRig needs db to hold the demo shop (catalogtest.EachDemo).
func newCrashRig(t *testing.T, db *bun.DB) *crashRig {
	t.Helper()
	r := &crashRig{testEnv: newTestEnvOnDemo(t, db), notes: &noteLog{}, now: fixedNow}
	llm := llmtest.NewServer(t)
	llm.SetResponder(func(req llmtest.Request) llmtest.Step {
		last := req.Messages[len(req.Messages)-1]
		if last.Role == "user" {
			if calls, ok := scriptedCalls[last.Content]; ok {
				return llmtest.CallTools(calls...)
			}
		}
		return llmtest.Reply("Done.")
	})
	eng, err := New(Config{
		DB: db, Search: searchtest.NewDatabase(db), Registry: prometheus.NewRegistry(), Now: r.clock,
		Model:     openai.New(openai.Config{BaseURL: llm.URL, Model: "test-model", MaxRetries: 1, RequestTimeout: 5 * time.Second}),
		RateLimit: 1 << 30, Notifier: r.notes, Crash: r.crash,
	})
	if err != nil {
		t.Fatal(err)
	}
	r.eng = eng
	return r
}

func (r *crashRig) clock() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.now
}

func (r *crashRig) advance(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.now = r.now.Add(d)
}

func (r *crashRig) crash(step string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.armed {
		return false
	}
	r.steps = append(r.steps, step)
	return len(r.steps) == r.crashAt
}

func (r *crashRig) arm(crashAt int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.armed, r.crashAt, r.steps = true, crashAt, nil
}

func (r *crashRig) disarm() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.armed = false
	return r.steps
}

func (r *crashRig) handle(user, text, key string) (*events, error) {
	ev := &events{}
	err := r.eng.Handle(context.Background(), Turn{Channel: "web", ChatID: user, UserID: user, Text: text, DedupKey: key}, ev)
	return ev, err
}

// crashScenario is a few turns, the last of which is crashed and retried.
type crashScenario struct {
	name   string
	before []string // turns run first, uncrashed
	text   string   // the turn under test
	// check asserts the state after the retry: every effect exactly once.
	check func(t *testing.T, r *crashRig, user string)
}

var crashScenarios = []crashScenario{
	{name: "add", text: "add two, twice", check: func(t *testing.T, r *crashRig, user string) {
		wantCart(t, r, user, map[string]int{"SHO-RUN-001-42": 4})
	}},
	{name: "set-remove", before: []string{"fill"}, text: "set and remove", check: func(t *testing.T, r *crashRig, user string) {
		wantCart(t, r, user, map[string]int{"SHO-RUN-001-42": 1})
	}},
	{name: "checkout", before: []string{"add one", "my details"}, text: "yes, order", check: func(t *testing.T, r *crashRig, user string) {
		wantCart(t, r, user, map[string]int{})
		if n := ordersOf(t, r, user); n != 1 {
			t.Errorf("%s: %d orders, want 1", user, n)
		}
		if n := r.notes.count(view.NoticeOrderPlaced, user); n != 1 {
			t.Errorf("%s: %d order notices, want 1", user, n)
		}
	}},
	{name: "handoff", text: "a person", check: func(t *testing.T, r *crashRig, user string) {
		if n := r.notes.count(view.NoticeHandoff, user); n != 1 {
			t.Errorf("%s: %d handoff notices, want 1", user, n)
		}
	}},
}

// TestCrashAtEveryStep crashes the turn under test at each of its steps in
// turn (inside and after each effect's transaction, before and inside the
// persist transaction), runs it again with the same DedupKey and checks
// that every effect happened once, the retry answered, and a third run is
// a replay — on SQLite and Postgres.
func TestCrashAtEveryStep(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		r := newCrashRig(t, db)
		for _, sc := range crashScenarios {
			t.Run(sc.name, func(t *testing.T) {
				steps := r.run(t, sc, sc.name+"-probe", 0)
				if len(steps) < 3 || !strings.Contains(strings.Join(steps, " "), "effect persist persist-tx") {
					t.Fatalf("steps of the turn = %v", steps)
				}
				for i := 1; i <= len(steps); i++ {
					r.run(t, sc, fmt.Sprintf("%s-%d", sc.name, i), i)
				}
			})
		}
	})
}

// run plays a scenario for a new shopper, crashing the turn under test at
// step crashAt (0: no crash), and returns the steps the turn went through.
func (r *crashRig) run(t *testing.T, sc crashScenario, user string, crashAt int) []string {
	t.Helper()
	for i, text := range sc.before {
		if _, err := r.handle(user, text, fmt.Sprint("b", i)); err != nil {
			t.Fatalf("%s: turn %q: %v", user, text, err)
		}
	}
	r.arm(crashAt)
	_, err := r.handle(user, sc.text, "k")
	steps := r.disarm()
	if crashAt > 0 {
		if !errors.Is(err, session.ErrCrashed) {
			t.Fatalf("%s: crash at %d of %v: err = %v", user, crashAt, steps, err)
		}
		ev, err := r.handle(user, sc.text, "k")
		if err != nil || ev.done() == "<no single done event>" {
			t.Fatalf("%s: the retry after a crash at %s: err %v, events %+v", user, steps[crashAt-1], err, ev.all)
		}
	} else if err != nil {
		t.Fatalf("%s: %v", user, err)
	}
	if ev, err := r.handle(user, sc.text, "k"); !errors.Is(err, ErrReplayed) || len(ev.all) != 0 {
		t.Errorf("%s: third run: err %v, events %d; want ErrReplayed", user, err, len(ev.all))
	}
	r.eng.notices.Wait()
	if t.Failed() {
		return steps
	}
	sc.check(t, r, user)
	return steps
}

// TestCrashRetryLoop: 100 crash-and-retry trials of a turn with two
// identical adds, crashing at each step in rotation: no unit lost, none
// added twice.
func TestCrashRetryLoop(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		r := newCrashRig(t, db)
		sc := crashScenarios[0]
		n := len(r.run(t, sc, "loop-probe", 0))
		for i := range 100 {
			r.run(t, sc, fmt.Sprint("loop-", i), i%n+1)
		}
		var bad int
		err := db.NewSelect().Model((*catalog.CartItem)(nil)).Where("quantity <> 4").ColumnExpr("count(*)").Scan(context.Background(), &bad)
		if err != nil || bad != 0 {
			t.Errorf("%d cart lines differ from 4 units (%v)", bad, err)
		}
	})
}

func wantCart(t *testing.T, r *crashRig, user string, want map[string]int) {
	t.Helper()
	c, err := catalog.ResolveCustomer(context.Background(), r.db, catalog.Identity{Channel: "web", PlatformUserID: user})
	if err != nil {
		t.Fatal(err)
	}
	cart, err := catalog.GetCart(context.Background(), r.db, catalog.PersonalCart(c.ID))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, it := range cart.Items {
		got[it.Product.SKU] = it.Quantity
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: cart = %v, want %v", user, got, want)
	}
}

func ordersOf(t *testing.T, r *crashRig, user string) int {
	t.Helper()
	n, err := r.db.NewSelect().Model((*catalog.Order)(nil)).Where("chat_id = ?", user).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// TestSweepAndPrune: the notice of a handoff whose turn crashed after the
// commit and never ran again is delivered by the periodic sweep, once; the
// journal forgets turns after three days and the search feed deletions
// after thirty (by the engine's clock).
func TestSweepAndPrune(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		r := newCrashRig(t, db)
		ctx := context.Background()
		if _, err := r.handle("sweep-0", "hello", "a"); err != nil { // prunes once, at start
			t.Fatal(err)
		}
		r.arm(2) // after the handoff's commit
		if _, err := r.handle("sweep-1", "a person", "k"); !errors.Is(err, session.ErrCrashed) {
			t.Fatalf("err = %v, want ErrCrashed", err)
		}
		r.disarm()
		next := func(user string) {
			t.Helper()
			if _, err := r.handle(user, "hello", "b"); err != nil {
				t.Fatal(err)
			}
			r.eng.notices.Wait()
		}
		r.advance(pruneEvery / 2)
		next("sweep-2")
		if n := r.notes.count(view.NoticeHandoff, "sweep-1"); n != 0 {
			t.Fatalf("%d notices before the sweep is due", n)
		}
		r.advance(pruneEvery)
		next("sweep-3")
		r.advance(pruneEvery)
		next("sweep-4")
		if n := r.notes.count(view.NoticeHandoff, "sweep-1"); n != 1 {
			t.Errorf("%d handoff notices after two sweeps, want 1", n)
		}
		count := func() int {
			n, err := db.NewSelect().Model((*catalog.TurnEffect)(nil)).Count(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return int(n)
		}
		if count() == 0 {
			t.Fatal("the journal is empty before the prune")
		}
		r.mu.Lock()
		now := r.now
		r.mu.Unlock()
		stones := []catalog.Tombstone{
			{Kind: catalog.TombstoneProduct, Key: "OLD-1", DeletedAt: now.Add(-keepTombstones - time.Hour)},
			{Kind: catalog.TombstoneProduct, Key: "NEW-1", DeletedAt: now},
		}
		if _, err := db.NewInsert().Model(&stones).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		r.advance(keepEffects + time.Hour)
		next("sweep-5")
		if n := count(); n != 0 {
			t.Errorf("%d journal rows left after three days", n)
		}
		var kept []string
		if err := db.NewSelect().Model((*catalog.Tombstone)(nil)).Column("key").Order("key").Scan(ctx, &kept); err != nil {
			t.Fatal(err)
		}
		if len(kept) != 1 || kept[0] != "NEW-1" {
			t.Errorf("tombstones after the prune = %v, want only NEW-1 (older than %s go)", kept, keepTombstones)
		}
	})
}
