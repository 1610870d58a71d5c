package engine

import (
	"context"
	"slices"
	"testing"

	"shopbot/catalog/search"
	"shopbot/engine/view"
)

// Buttons of tools are labelled in the shopper's language, remembered
// from what they last wrote when the turn is a button press.
func TestToolButtonsSpeakTheShoppersLanguage(t *testing.T) {
	env := newTestEnv(t)
	eng, err := New(Config{DB: env.db, Search: search.NewDatabase(env.db)})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	turn := Turn{Channel: "web", ChatID: "ru-1", UserID: "ru-1", Text: "кроссовки", DedupKey: "t1"}
	if err := eng.Handle(ctx, turn, &events{}); err != nil {
		t.Fatal(err)
	}
	a := view.Action{Kind: view.ActDetails, SKU: "SHO-RUN-001"}
	ev := &events{}
	if err := eng.Handle(ctx, Turn{Channel: "web", ChatID: "ru-1", UserID: "ru-1", Action: &a, DedupKey: "t2"}, ev); err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, b := range ev.of(EventButtons) {
		for _, btn := range b.Buttons {
			labels = append(labels, btn.Label)
		}
	}
	if !slices.Contains(labels, "В корзину") || !slices.Contains(labels, "Похожие") {
		t.Errorf("details buttons after a Russian message: %q, want Russian labels", labels)
	}
}
