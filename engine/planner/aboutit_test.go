package planner

import (
	"context"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/engine/planner/intent"
	"shopbot/engine/session"
)

// "Is it …?" about the product in focus is answered from its own text,
// not searched; without a product in focus it stays a search.
func TestAboutIt(t *testing.T) {
	ctx := context.Background()
	c := newPlannerChat(t, "en")
	ps, _, err := catalog.ListProductPage(ctx, c.e.db, catalog.ProductList{Stock: catalog.StockIn, Limit: 50, Sort: catalog.SortTitle})
	if err != nil {
		t.Fatal(err)
	}
	var p catalog.Product
	var word string
	for _, q := range ps {
		for _, w := range strings.Fields(strings.ToLower(q.Description)) {
			if w = strings.Trim(w, ".,;:!?()"); len(w) >= 6 && !strings.Contains(strings.ToLower(q.Title), w) {
				p, word = q, w
				break
			}
		}
		if word != "" {
			break
		}
	}
	if word == "" {
		t.Fatal("no demo product with a description word")
	}
	c.e.session.State.Focus = p.SKU
	plan := c.say(t, "is it "+word+"?")
	if !strings.HasPrefix(plan.Text, "Yes, "+p.Title) || !strings.Contains(strings.ToLower(plan.Text), word) || !strings.Contains(planCallNames(plan), "get_product_details") {
		t.Errorf("is it %s: %s / %s", word, plan.Text, planCallNames(plan))
	}
	plan = c.say(t, "does it have xyzzyplugh?")
	if !strings.Contains(plan.Text, `does not mention "xyzzyplugh"`) {
		t.Errorf("not in the text: %s", plan.Text)
	}
	for msg, want := range map[string]intent.Kind{
		"is it waterproof?":     intent.IntentAboutIt,
		"он водонепроницаемый?": intent.IntentAboutIt,
		"is it in stock?":       intent.IntentAvailability,
	} {
		if in := intent.Parse(msg, "", &session.State{Focus: "X", Shown: []string{"X"}}); in.Kind != want {
			t.Errorf("%q: %s, want %s", msg, in.Kind, want)
		}
	}
	if in := intent.Parse("is it waterproof?", "", &session.State{}); in.Kind == intent.IntentAboutIt {
		t.Errorf("nothing in focus: %+v", in)
	}
}
