package planner

import (
	"context"
	"slices"
	"strings"
	"testing"

	"shopbot/catalog"
)

// "Let me know when X is back" works without a model, in English and
// Russian, by name and by "it".
func TestPlannerNotifyBack(t *testing.T) {
	c := newPlannerChat(t, "en")
	ctx := context.Background()
	ps, _, err := catalog.ListProductPage(ctx, c.e.db, catalog.ProductList{Stock: catalog.StockIn, Limit: 50, Sort: catalog.SortTitle})
	if err != nil {
		t.Fatal(err)
	}
	// A product without variants: a parent's stock is its variants'.
	i := slices.IndexFunc(ps, func(p catalog.Product) bool { return !p.HasVariants() })
	if i < 0 {
		t.Fatal("no demo product without variants in stock")
	}
	p := ps[i]
	if err := catalog.SetStock(ctx, c.e.db, p.SKU, 0); err != nil {
		t.Fatal(err)
	}
	c.e.session.State.Focus = p.SKU
	plan := c.say(t, "let me know when it is back in stock")
	if !strings.Contains(planCallNames(plan), "notify_when_available") || !strings.Contains(plan.Text, "back in stock") {
		t.Fatalf("plan: %s / %s", plan.Text, planCallNames(plan))
	}
	if a, err := catalog.GetStockAlert(ctx, c.e.db, c.e.session.Customer.ID, p.SKU); err != nil || a.State != catalog.AlertWaiting {
		t.Fatalf("alert = %+v, %v", a, err)
	}
	plan = c.say(t, "сообщите, когда появится")
	if !strings.Contains(plan.Text, "Напишу") {
		t.Errorf("ru by focus: %s / %s", plan.Text, planCallNames(plan))
	}
}
