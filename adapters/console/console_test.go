package console_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"shopbot/adapters/console"
	"shopbot/engine"
	"shopbot/engine/view"
)

type fakeEngine struct {
	turns []engine.Turn
}

func (f *fakeEngine) Handle(ctx context.Context, t engine.Turn, sink engine.Sink) error {
	f.turns = append(f.turns, t)
	if t.Text == "slow down" {
		return engine.ErrRateLimited
	}
	_ = sink.Send(ctx, engine.Event{Kind: engine.EventText, Text: "Found 1 product."})
	_ = sink.Send(ctx, engine.Event{Kind: engine.EventCards, Cards: []view.Card{{SKU: "SHO-RUN-001", Title: "Glide 3", PriceText: "$89.99", InStock: true, Stock: 3}}})
	_ = sink.Send(ctx, engine.Event{Kind: engine.EventCart, Cart: &view.CartView{Units: 2, TotalText: "$179.98", Lines: []view.CartLine{{SKU: "SHO-RUN-001", Title: "Glide 3", Qty: 2, PriceText: "$179.98"}}}})
	return sink.Send(ctx, engine.Event{Kind: engine.EventDone, Text: "Found 1 product."})
}

func TestScriptedChat(t *testing.T) {
	f := &fakeEngine{}
	var out bytes.Buffer
	in := strings.NewReader("running shoes\n\n/do add|SHO-RUN-001|2\n/do bogus\nslow down\n")
	if err := console.Run(context.Background(), f, in, &out, console.Options{User: "ann"}); err != nil {
		t.Fatal(err)
	}
	want := "Found 1 product.\nSHO-RUN-001 · Glide 3 · $89.99 · only 3 left\ncart · 2 item(s) · $179.98\n  2 × Glide 3 (SHO-RUN-001) · $179.98\n\n"
	got := out.String()
	if !strings.HasPrefix(got, want) {
		t.Errorf("first block:\n%q\nwant\n%q", got, want)
	}
	if len(f.turns) != 3 || f.turns[1].Action == nil || f.turns[1].Action.Qty != 2 || f.turns[0].UserID != "ann" {
		t.Errorf("turns = %+v", f.turns)
	}
	if !strings.Contains(got, "! engine: unknown action") || !strings.Contains(got, "wait a minute") {
		t.Errorf("output:\n%s", got)
	}
	if f.turns[0].DedupKey == f.turns[1].DedupKey {
		t.Error("lines share a dedup key")
	}
	// The next session talks in the same conversation: its first line
	// must not be taken for a replay of this session's first line.
	if err := console.Run(context.Background(), f, strings.NewReader("running shoes\n"), &out, console.Options{User: "ann"}); err != nil {
		t.Fatal(err)
	}
	if last := f.turns[len(f.turns)-1]; last.DedupKey == f.turns[0].DedupKey {
		t.Errorf("two sessions' first lines share the key %q", last.DedupKey)
	}
}
