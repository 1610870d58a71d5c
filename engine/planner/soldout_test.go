package planner

import (
	"context"
	"slices"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/engine/view"
)

// A product named by its title that exists but has no stock is said as
// sold out, with a Notify button, in English and Russian, by search and by
// "add"; words nothing has are still "found nothing".
func TestSoldOutNamed(t *testing.T) {
	ctx := context.Background()
	c := newPlannerChat(t, "en")
	ps, _, err := catalog.ListProductPage(ctx, c.e.db, catalog.ProductList{Stock: catalog.StockIn, Limit: 50, Sort: catalog.SortTitle})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ps, func(p catalog.Product) bool { return !p.HasVariants() })
	if i < 0 {
		t.Fatal("no demo product without variants in stock")
	}
	p := ps[i]
	if err := catalog.SetStock(ctx, c.e.db, p.SKU, 0); err != nil {
		t.Fatal(err)
	}
	notify := func(plan Plan) bool {
		return slices.ContainsFunc(plan.Buttons, func(b view.Button) bool {
			return b.Action.Kind == view.ActNotify && b.Action.SKU == p.SKU
		})
	}
	for i, msg := range []string{p.Title, "add " + p.Title} {
		if i > 0 { // a new chat: nothing shown, the add finds it by name
			c = newPlannerChat(t, "en")
			if err := catalog.SetStock(ctx, c.e.db, p.SKU, 0); err != nil {
				t.Fatal(err)
			}
		}
		plan := c.say(t, msg)
		if !strings.Contains(plan.Text, "sold out") || !strings.Contains(plan.Text, p.Title) || !notify(plan) {
			t.Errorf("%q: %s (buttons %v)", msg, plan.Text, plan.Buttons)
		}
	}
	ru := newPlannerChat(t, "ru")
	if err := catalog.SetStock(ctx, ru.e.db, p.SKU, 0); err != nil {
		t.Fatal(err)
	}
	if plan := ru.say(t, "а есть у вас "+p.Title+"?"); !strings.Contains(plan.Text, "нет в наличии") {
		t.Errorf("ru: %s", plan.Text)
	}
	if plan := c.say(t, "xyzzy plughs"); !strings.Contains(plan.Text, "found nothing") || notify(plan) {
		t.Errorf("unknown words: %s", plan.Text)
	}
}
