package dbstats

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"
)

// Counts is a tally of database work.
type Counts struct {
	Statements   int64         // round trips, BEGIN/COMMIT/ROLLBACK included
	Transactions int64         // BEGINs
	Reads        int64         // SELECTs
	Writes       int64         // INSERT, UPDATE, DELETE
	Wait         time.Duration // summed time from sending a statement to its answer
}

func (c Counts) String() string {
	return fmt.Sprintf("statements %d, transactions %d, reads %d, writes %d", c.Statements, c.Transactions, c.Reads, c.Writes)
}

// Counter accumulates Counts; safe for concurrent use. With Detail set,
// it also keeps how often each statement shape ran (Shapes).
type Counter struct {
	statements, transactions, reads, writes, wait atomic.Int64

	Detail bool
	mu     sync.Mutex
	shapes map[string]*shapeCount
}

type shapeCount struct {
	n    int
	wait time.Duration
}

// Add counts one statement of the given operation (SELECT, INSERT,
// BEGIN…) that took d.
func (c *Counter) Add(op string, d time.Duration) { c.add(op, d, op) }

func (c *Counter) add(op string, d time.Duration, shape string) {
	if op == "" {
		op = "SELECT"
	}
	c.statements.Add(1)
	c.wait.Add(int64(d))
	switch op {
	case "BEGIN":
		c.transactions.Add(1)
	case "SELECT", "LOCK":
		c.reads.Add(1)
	case "INSERT", "UPDATE", "DELETE":
		c.writes.Add(1)
	}
	if c.Detail {
		c.mu.Lock()
		if c.shapes == nil {
			c.shapes = map[string]*shapeCount{}
		}
		sc := c.shapes[shape]
		if sc == nil {
			sc = &shapeCount{}
			c.shapes[shape] = sc
		}
		sc.n++
		sc.wait += d
		c.mu.Unlock()
	}
}

// Counts returns the tally so far.
func (c *Counter) Counts() Counts {
	return Counts{
		Statements: c.statements.Load(), Transactions: c.transactions.Load(),
		Reads: c.reads.Load(), Writes: c.writes.Load(), Wait: time.Duration(c.wait.Load()),
	}
}

// Shapes lists the statements counted with Detail, most frequent first,
// as "count<TAB>mean ms<TAB>statement" lines (the statement's first 120
// bytes; the mean is from sending it to reading its answer).
func (c *Counter) Shapes() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.shapes))
	for s, sc := range c.shapes {
		out = append(out, fmt.Sprintf("%d\t%.3f\t%s", sc.n, float64(sc.wait.Microseconds())/1000/float64(sc.n), s))
	}
	sort.Slice(out, func(i, j int) bool {
		var a, b int
		fmt.Sscan(out[i], &a)
		fmt.Sscan(out[j], &b)
		if a != b {
			return a > b
		}
		return out[i] < out[j]
	})
	return out
}

type ctxKey struct{}

// With returns ctx whose statements are also counted on c.
func With(ctx context.Context, c *Counter) context.Context {
	return context.WithValue(ctx, ctxKey{}, c)
}

// From returns the Counter of ctx, or nil.
func From(ctx context.Context) *Counter {
	c, _ := ctx.Value(ctxKey{}).(*Counter)
	return c
}

// Observe counts a statement sent around Bun's hooks (database/sql
// directly) on ctx's Counter, if any: query is its text, start when it
// was sent. Call it deferred, so the time includes reading the rows.
func Observe(ctx context.Context, query string, start time.Time) {
	c := From(ctx)
	if c == nil {
		return
	}
	c.add(firstWord(query), time.Since(start), shapeOfText(query, c.Detail))
}

func shapeOfText(q string, detail bool) string {
	if !detail {
		return ""
	}
	q = strings.Join(strings.Fields(q), " ")
	if len(q) > 120 {
		q = q[:120]
	}
	return q
}

func firstWord(q string) string {
	q = strings.TrimSpace(q)
	if i := strings.IndexAny(q, " \n\t("); i > 0 {
		q = q[:i]
	}
	return strings.ToUpper(q)
}

// Hook is the Bun query hook; Total is every statement of its DB.
type Hook struct {
	Total Counter
}

// Install returns db with a counting hook: statements run through it
// are counted on their context's Counter, and on the hook's Total.
func Install(db *bun.DB) (*bun.DB, *Hook) {
	h := &Hook{}
	return db.WithQueryHook(h), h
}

// BeforeQuery implements bun.QueryHook.
func (h *Hook) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context { return ctx }

// AfterQuery implements bun.QueryHook.
func (h *Hook) AfterQuery(ctx context.Context, ev *bun.QueryEvent) {
	op := operation(ev)
	d := time.Since(ev.StartTime)
	shape := ""
	c := From(ctx)
	if h.Total.Detail || (c != nil && c.Detail) {
		shape = shapeOf(ev)
	}
	h.Total.add(op, d, shape)
	if c != nil {
		c.add(op, d, shape)
	}
}

func operation(ev *bun.QueryEvent) string {
	if ev.IQuery != nil {
		return ev.IQuery.Operation()
	}
	return firstWord(ev.Query)
}

func shapeOf(ev *bun.QueryEvent) string {
	s := ev.QueryTemplate
	if s == "" {
		s = ev.Query
	}
	return shapeOfText(s, true)
}
