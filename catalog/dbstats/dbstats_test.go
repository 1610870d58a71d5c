package dbstats_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/dbstats"
)

// TestCounts: the hook counts what runs under a counted context —
// statements, transactions, reads and writes — and nothing else.
func TestCounts(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		db, _ = dbstats.Install(db)
		c := &dbstats.Counter{Detail: true}
		ctx := dbstats.With(context.Background(), c)
		if _, err := db.NewSelect().ColumnExpr("1").Exec(context.Background()); err != nil {
			t.Fatal(err) // not counted: no counter in its context
		}
		var n int
		if err := db.NewSelect().TableExpr("customers").ColumnExpr("count(*)").Scan(ctx, &n); err != nil {
			t.Fatal(err)
		}
		err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			_, err := tx.NewUpdate().TableExpr("customers").Set("locale = locale").Where("id = 0").Exec(ctx)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		dbstats.Observe(ctx, "DELETE FROM x", time.Now())
		got := c.Counts()
		want := dbstats.Counts{Statements: 5, Transactions: 1, Reads: 1, Writes: 2}
		got.Wait = 0
		if got != want {
			t.Errorf("counts = %+v, want %+v\n%s", got, want, strings.Join(c.Shapes(), "\n"))
		}
		if shapes := c.Shapes(); len(shapes) != 5 || !strings.Contains(strings.Join(shapes, "\n"), "DELETE FROM x") {
			t.Errorf("shapes = %q", shapes)
		}
	})
}
