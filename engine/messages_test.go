package engine

import (
	"context"
	"slices"
	"testing"

	"shopbot/catalog/search/searchtest"
	"shopbot/engine/view"
)

// Buttons of tools are labelled in the shopper's language, remembered
// from what they last wrote when the turn is a button press.
func TestToolButtonsSpeakTheShoppersLanguage(t *testing.T) {
	env := newTestEnv(t)
	eng, err := New(Config{DB: env.db, Search: searchtest.NewDatabase(env.db)})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	turn := Turn{Channel: "web", ChatID: "ru-1", UserID: "ru-1", Text: "кроссовки", DedupKey: "t1"}
	if err := eng.Handle(ctx, turn, &events{}); err != nil {
		t.Fatal(err)
	}
	labelsOf := func(sku, key string) []string {
		t.Helper()
		a := view.Action{Kind: view.ActDetails, SKU: sku}
		ev := &events{}
		if err := eng.Handle(ctx, Turn{Channel: "web", ChatID: "ru-1", UserID: "ru-1", Action: &a, DedupKey: key}, ev); err != nil {
			t.Fatal(err)
		}
		var labels []string
		for _, b := range ev.of(EventButtons) {
			for _, btn := range b.Buttons {
				labels = append(labels, btn.Label)
			}
		}
		return labels
	}
	if labels := labelsOf("ELE-HPH-007", "t2"); !slices.Contains(labels, "В корзину") || !slices.Contains(labels, "Похожие") {
		t.Errorf("details buttons after a Russian message: %q, want Russian labels", labels)
	}
	// A listing with sizes offers a choice instead of an Add button.
	if labels := labelsOf("SHO-RUN-001", "t3"); len(labels) == 0 || labels[0] != "Выбрать: размер" || !slices.Contains(labels, "Похожие") {
		t.Errorf("details buttons of a listing with sizes after a Russian message: %q, want Russian labels", labels)
	}
}
