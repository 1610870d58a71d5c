package tools

import (
	"context"
	"strconv"
	"testing"
)

// BenchmarkCartWrite is one journaled cart change on SQLite: the effect's
// transaction (journal row + update) and the cart read after it, each
// iteration a new turn so every write claims a fresh row.
func BenchmarkCartWrite(b *testing.B) {
	e := newTestEnv(b)
	ctx := context.Background()
	if _, err := e.tools.Call(ctx, e.session, "add_to_cart", `{"sku":"SHO-RUN-001"}`); err != nil {
		b.Fatal(err)
	}
	args := [2]string{`{"sku":"SHO-RUN-001","quantity":1}`, `{"sku":"SHO-RUN-001","quantity":2}`}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		e.session.DedupKey = "bench-" + strconv.Itoa(i)
		if _, err := e.tools.Call(ctx, e.session, "update_cart_item", args[i%2]); err != nil {
			b.Fatal(err)
		}
	}
}
