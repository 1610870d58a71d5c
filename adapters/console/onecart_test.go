package console_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"shopbot/adapters/console"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine"
)

// TestOneCartBlockPerReply: on the real engine, "remove one" (which reads
// the cart, then changes it) prints one cart block, the cart after the
// change; it printed the old cart, then the new.
func TestOneCartBlockPerReply(t *testing.T) {
	db := catalogtest.SQLite(t)
	if _, err := demo.Load(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(engine.Config{DB: db, Search: searchtest.NewDatabase(db), RateLimit: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	in := strings.NewReader("/do add|ELE-HPH-001|3\nremove one Auralis\n")
	if err := console.Run(context.Background(), eng, in, &out, console.Options{User: "ann"}); err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(strings.TrimSpace(out.String()), "\n\n")
	if len(blocks) != 2 {
		t.Fatalf("%d reply blocks, want 2:\n%s", len(blocks), out.String())
	}
	last := blocks[1]
	if n := strings.Count(last, "cart · "); n != 1 || !strings.Contains(last, "cart · 2 item(s)") || !strings.Contains(last, "  2 × Auralis") {
		t.Errorf("the reply to \"remove one\" shows %d carts, want one with 2 items:\n%s", n, last)
	}
	if n := strings.Count(last, "[Checkout]"); n != 1 {
		t.Errorf("the checkout button shows %d times:\n%s", n, last)
	}
}
