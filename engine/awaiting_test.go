package engine

import (
	"context"
	"fmt"
	"testing"

	"shopbot/catalog/search/searchtest"
	"shopbot/engine/view"
)

// TestDoneSaysWhatCheckoutAwaits: each turn's EventDone carries what
// checkout waits for after it — name, phone, address, then the
// confirmation — and nothing once the order is placed or before checkout.
func TestDoneSaysWhatCheckoutAwaits(t *testing.T) {
	env := newTestEnv(t)
	eng, err := New(Config{DB: env.db, Search: searchtest.NewDatabase(env.db), RateLimit: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	turn := func(text string, act *view.Action) Awaiting {
		t.Helper()
		n++
		ev := &events{}
		tr := Turn{Channel: "telegram", ChatID: "77", UserID: "77", Text: text, Action: act, DedupKey: fmt.Sprint("k", n)}
		if err := eng.Handle(context.Background(), tr, ev); err != nil {
			t.Fatalf("turn %q: %v", text, err)
		}
		done := ev.of(EventDone)
		if len(done) != 1 {
			t.Fatalf("turn %q: %d done events", text, len(done))
		}
		return done[0].Awaiting
	}
	steps := []struct {
		text string
		act  *view.Action
		want Awaiting
	}{
		{act: &view.Action{Kind: view.ActAdd, SKU: "SHO-RUN-001-42", Qty: 1}, want: ""},
		{act: &view.Action{Kind: view.ActCheckout}, want: AwaitingName},
		{text: "Ann Tester", want: AwaitingPhone},
		{text: "+1 555 010 2030", want: AwaitingAddress},
		{text: "12 Main Street, Springfield", want: AwaitingConfirm},
		{act: &view.Action{Kind: view.ActConfirm}, want: ""},
	}
	for _, s := range steps {
		if got := turn(s.text, s.act); got != s.want {
			t.Fatalf("after %q %+v: awaiting %q, want %q", s.text, s.act, got, s.want)
		}
	}
	if n := ordersOf(t, &crashRig{testEnv: env}, "77"); n != 1 {
		t.Errorf("%d orders placed, want 1", n)
	}
}
