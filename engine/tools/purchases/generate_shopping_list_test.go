package purchases_test

import (
	"context"
	"testing"

	"shopbot/catalog"
	"shopbot/engine/toolkit"
	"shopbot/engine/tools/purchases"
	"shopbot/engine/tools/toolstest"
	"shopbot/engine/view"
)

func TestShoppingList(t *testing.T) {
	e := toolstest.SQLite(t)
	seedPurchaseHabits(t, e)

	// Within a week only the coffee is due (four days overdue), in its
	// usual quantity (median of 1, 2, 2, 1).
	res := e.Call(t, "generate_shopping_list", `{}`)
	l := listOf(t, res)
	if l.Empty || l.DaysAhead != 7 || l.DueBy != "2026-11-28" || len(l.Items) != 1 {
		t.Fatalf("list = %+v", l)
	}
	if it := l.Items[0]; it.SKU != "GRO-COF-001" || it.Qty != 2 || it.Due != "2026-11-17" || it.OverdueDays != 4 ||
		!it.InStock || it.Price != "$9.99" || it.LineTotal != "$19.98" || l.Total != "$19.98" {
		t.Errorf("coffee = %+v, total %s", it, l.Total)
	}
	if len(res.Cards) != 1 || res.Cards[0].SKU != "GRO-COF-001" || len(res.Buttons) != 1 {
		t.Fatalf("cards %+v, buttons %+v", res.Cards, res.Buttons)
	}
	if b := res.Buttons[0]; b.Action != (view.Action{Kind: view.ActAdd, SKU: "GRO-COF-001", Qty: 2}) || b.Label[:4] != "Add " {
		t.Errorf("button = %+v", b)
	}
	if len(e.Session.State.Shown) != 1 {
		t.Errorf("shown = %v", e.Session.State.Shown)
	}

	// Two weeks ahead the dog food is due too, after the coffee.
	l = listOf(t, e.Call(t, "generate_shopping_list", `{"days_ahead":14}`))
	if len(l.Items) != 2 || l.Items[0].SKU != "GRO-COF-001" || l.Items[1].SKU != "PET-DGF-001" || l.Items[1].Qty != 1 || l.Total != "$35.97" {
		t.Errorf("two weeks = %+v", l)
	}

	// A budget keeps the most urgent items that fit.
	l = listOf(t, e.Call(t, "generate_shopping_list", `{"days_ahead":14,"budget":20}`))
	if len(l.Items) != 1 || l.Items[0].SKU != "GRO-COF-001" || len(l.OverBudget) != 1 || l.OverBudget[0].SKU != "PET-DGF-001" || l.Budget != "$20.00" {
		t.Errorf("budget 20 = %+v", l)
	}
	l = listOf(t, e.Call(t, "generate_shopping_list", `{"days_ahead":14,"budget":16}`))
	if len(l.Items) != 0 || len(l.OverBudget) != 2 || l.Total != "$0.00" {
		t.Errorf("budget 16 = %+v", l)
	}

	// Out of stock is listed but has no button; archived products are left out.
	ctx := context.Background()
	if err := catalog.SetStock(ctx, e.DB, "PET-DGF-001", 0); err != nil {
		t.Fatal(err)
	}
	if err := catalog.SetProductActive(ctx, e.DB, "GRO-COF-001", false); err != nil {
		t.Fatal(err)
	}
	res = e.Call(t, "generate_shopping_list", `{"days_ahead":14}`)
	l = listOf(t, res)
	if len(l.Items) != 1 || l.Items[0].SKU != "PET-DGF-001" || l.Items[0].InStock || len(res.Buttons) != 0 {
		t.Errorf("stock and archive: %+v, buttons %+v", l, res.Buttons)
	}

	// Nothing due: say when the next thing is.
	l = listOf(t, e.Call(t, "generate_shopping_list", `{"days_ahead":1}`))
	if len(l.Items) != 0 || l.Hint == "" || l.NextDue == nil || l.NextDue.SKU != "PET-DGF-001" || l.NextDue.Due != "2026-12-01" {
		t.Errorf("nothing due = %+v", l)
	}

	_, err := e.Tools.Call(ctx, e.Session, "generate_shopping_list", `{"budget":-1}`)
	if _, isErr := toolkit.ModelMessage(toolkit.Result{}, err); !isErr {
		t.Error("negative budget accepted")
	}
}

func TestShoppingListWithoutHistory(t *testing.T) {
	e := toolstest.SQLite(t)
	res := e.Call(t, "generate_shopping_list", `{"days_ahead":30}`)
	if l := listOf(t, res); !l.Empty || l.Hint == "" || len(res.Cards) != 0 {
		t.Errorf("no history: %+v", l)
	}
}

func listOf(t *testing.T, res toolkit.Result) purchases.ShoppingList {
	t.Helper()
	l, ok := res.Data.(purchases.ShoppingList)
	if !ok {
		t.Fatalf("data = %#v", res.Data)
	}
	return l
}
