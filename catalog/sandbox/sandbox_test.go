package sandbox_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/sandbox"
)

// digest is a table's rows as text, in key order, over the columns every
// dialect reads alike.
func digest(t *testing.T, db bun.IDB, query string) string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	cols, _ := rows.Columns()
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for _, v := range vals {
			switch x := v.(type) {
			case []byte:
				v = string(x)
			case bool: // Postgres has booleans, SQLite 0 and 1
				v = map[bool]int{false: 0, true: 1}[x]
			}
			fmt.Fprintf(&b, "%v|", v)
		}
		b.WriteByte('\n')
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var digests = []string{
	"SELECT id, parent_id, name, path, position FROM categories ORDER BY id",
	"SELECT id, sku, title, description, brand, category_id, price, currency, stock, active, rating_avg, rating_count, sold_count, parent_id, options, option_names, variant_count, price_max FROM products ORDER BY id",
	"SELECT id, product_id, author, rating, body, title, hidden FROM reviews ORDER BY id",
	"SELECT id, slug, title, body FROM pages ORDER BY id",
	"SELECT id, kind, ref, seq, scope, title, heading, body FROM passages ORDER BY id",
	"SELECT key, value FROM settings ORDER BY key",
}

func TestCloneCopiesTheCatalogAndNothingElse(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, src *bun.DB) {
		ctx := context.Background()
		if _, err := demo.Seed(ctx, src); err != nil {
			t.Fatal(err)
		}
		if err := catalog.NewSettingsStore(src, catalog.Settings{}).Save(ctx, catalog.Settings{PromptExtra: "Be brief."}, time.Now()); err != nil {
			t.Fatal(err)
		}
		// A shopper with a cart: neither is copied.
		c, err := catalog.ResolveCustomer(ctx, src, catalog.Identity{Channel: "web", PlatformUserID: "ann"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := catalog.AddCartItem(ctx, src, catalog.PersonalCart(c.ID), "SHO-RUN-001-42", 1, c.ID); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		tmpl, err := sandbox.Clone(ctx, src, dir)
		if err != nil {
			t.Fatal(err)
		}
		cp, err := tmpl.Open(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range digests {
			want, got := digest(t, src, q), digest(t, cp.DB, q)
			if want == "" && !strings.Contains(q, "settings") && !strings.Contains(q, "reviews") {
				t.Fatalf("%s: the source is empty", q)
			}
			if got != want {
				t.Errorf("%s: the copy differs from the source:\n%s", q, firstDiff(want, got))
			}
		}
		if tmpl.Rows["products"] == 0 || tmpl.Rows["passages"] == 0 {
			t.Errorf("rows copied = %v", tmpl.Rows)
		}
		for _, q := range []string{"SELECT count(*) FROM customers", "SELECT count(*) FROM carts", "SELECT count(*) FROM cart_items"} {
			var n int
			if err := cp.DB.QueryRowContext(ctx, q).Scan(&n); err != nil || n != 0 {
				t.Errorf("%s in the copy = %d, %v; want 0", q, n, err)
			}
		}
		// The copy is a working shop: a cart there moves nothing in the source.
		other, err := catalog.ResolveCustomer(ctx, cp.DB, catalog.Identity{Channel: "web", PlatformUserID: "bob"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := catalog.AddCartItem(ctx, cp.DB, catalog.PersonalCart(other.ID), "SHO-RUN-001-42", 2, other.ID); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := src.QueryRowContext(ctx, "SELECT count(*) FROM cart_items").Scan(&n); err != nil || n != 1 {
			t.Errorf("source cart items = %d, %v; want 1", n, err)
		}
		// Copies are independent.
		cp2, err := tmpl.Open(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := cp2.DB.QueryRowContext(ctx, "SELECT count(*) FROM cart_items").Scan(&n); err != nil || n != 0 {
			t.Errorf("second copy's cart items = %d, %v; want 0", n, err)
		}
		for _, c := range []*sandbox.Copy{cp, cp2} {
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
		}
		tmpl.Remove()
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("files left in %s: %v", dir, left)
		}
	})
}

func TestCloneRefusesAnUnmigratedSource(t *testing.T) {
	src, _, err := catalog.OpenDB("sqlite:" + filepath.Join(t.TempDir(), "empty.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dir := t.TempDir()
	_, err = sandbox.Clone(context.Background(), src, dir)
	if err == nil || !strings.Contains(err.Error(), "has no table categories (run shopbot migrate)") {
		t.Fatalf("err = %v", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("files left in %s: %v", dir, left)
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range min(len(w), len(g)) {
		if w[i] != g[i] {
			return "source " + w[i] + "\ncopy   " + g[i]
		}
	}
	return fmt.Sprintf("%d rows in the source, %d in the copy", len(w)-1, len(g)-1)
}
