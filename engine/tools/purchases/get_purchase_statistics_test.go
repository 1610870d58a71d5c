package purchases_test

import (
	"context"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/engine/toolkit"
	"shopbot/engine/tools/purchases"
	"shopbot/engine/tools/toolstest"
)

// seedPurchaseHabits gives the session's shopper a history: coffee every
// 14 days (last 18 days ago), dog food every 30 days (last 20 days ago),
// running shoes once, a cancelled order and an order from 200 days ago.
func seedPurchaseHabits(t *testing.T, e *toolstest.Env) {
	t.Helper()
	s := e.Session
	e.PlaceOrder(t, s, "h1", 60, map[string]int{"GRO-COF-001": 1})
	e.PlaceOrder(t, s, "h2", 50, map[string]int{"PET-DGF-001": 1})
	e.PlaceOrder(t, s, "h3", 46, map[string]int{"GRO-COF-001": 2, "SHO-RUN-001-42": 1})
	e.PlaceOrder(t, s, "h4", 32, map[string]int{"GRO-COF-001": 2})
	e.PlaceOrder(t, s, "h5", 20, map[string]int{"PET-DGF-001": 1})
	e.PlaceOrder(t, s, "h6", 18, map[string]int{"GRO-COF-001": 1})
	cancelled := e.PlaceOrder(t, s, "h7", 10, map[string]int{"OFF-STA-004": 5})
	e.PlaceOrder(t, s, "h8", 200, map[string]int{"TOY-BLD-004": 1})
	if _, err := catalog.SetOrderStatus(context.Background(), e.DB, cancelled.Number, catalog.StatusCancelled, ""); err != nil {
		t.Fatal(err)
	}
	other := toolstest.Session(t, e.DB, "web", "someone-else")
	e.PlaceOrder(t, other, "x1", 5, map[string]int{"GRO-COF-001": 3})
}

func TestPurchaseStatisticsByItem(t *testing.T) {
	e := toolstest.SQLite(t)
	seedPurchaseHabits(t, e)
	st := statsOf(t, e.Call(t, "get_purchase_statistics", `{}`))
	if st.Empty || st.PeriodDays != 90 || st.GroupBy != "item" || st.Orders != 6 || st.Units != 9 || st.Spend != "$181.91" {
		t.Errorf("totals = %+v", st)
	}
	if len(st.Items) != 3 {
		t.Fatalf("items = %+v", st.Items)
	}
	coffee, dog, shoes := st.Items[0], st.Items[1], st.Items[2]
	if coffee.SKU != "GRO-COF-001" || coffee.Purchases != 4 || coffee.Quantity != 6 || coffee.Spend != "$59.94" ||
		coffee.AvgDaysBetween == nil || *coffee.AvgDaysBetween != 14 || coffee.LastPurchase != "2026-11-03" || coffee.PredictedNext != "2026-11-17" {
		t.Errorf("coffee = %+v", coffee)
	}
	if dog.SKU != "PET-DGF-001" || dog.Purchases != 2 || *dog.AvgDaysBetween != 30 || dog.PredictedNext != "2026-12-01" || dog.Category != "Pets > Dog Food" {
		t.Errorf("dog food = %+v", dog)
	}
	if shoes.SKU != "SHO-RUN-001-42" || shoes.Purchases != 1 || shoes.AvgDaysBetween != nil || shoes.PredictedNext != "" {
		t.Errorf("shoes = %+v", shoes)
	}
	msg, _ := toolkit.ModelMessage(toolkit.Result{Data: st}, nil)
	if strings.Count(msg, "avg_days_between") != 2 || strings.Contains(msg, "OFF-STA-004") {
		t.Errorf("model data = %s", msg)
	}

	if st := statsOf(t, e.Call(t, "get_purchase_statistics", `{"period_days":365}`)); st.Orders != 7 || len(st.Items) != 4 {
		t.Errorf("a year: %d orders, %d items", st.Orders, len(st.Items))
	}
	if st := statsOf(t, e.Call(t, "get_purchase_statistics", `{"period_days":1}`)); !st.Empty || st.Orders != 0 {
		t.Errorf("one day: %+v", st)
	}
}

func TestPurchaseStatisticsGrouped(t *testing.T) {
	e := toolstest.SQLite(t)
	seedPurchaseHabits(t, e)
	st := statsOf(t, e.Call(t, "get_purchase_statistics", `{"group_by":"category"}`))
	want := []purchases.GroupStat{
		{Category: "Grocery > Coffee & Tea", Purchases: 4, Quantity: 6, Spend: "$59.94"},
		{Category: "Pets > Dog Food", Purchases: 2, Quantity: 2, Spend: "$31.98"},
		{Category: "Shoes > Running", Purchases: 1, Quantity: 1, Spend: "$89.99"},
	}
	if len(st.Items) != 0 || !equalGroups(st.Categories, want) {
		t.Errorf("categories = %+v", st.Categories)
	}
	st = statsOf(t, e.Call(t, "get_purchase_statistics", `{"group_by":"week","period_days":90}`))
	want = []purchases.GroupStat{
		{Week: "2026-09-21", Purchases: 1, Quantity: 1, Spend: "$9.99"},
		{Week: "2026-09-28", Purchases: 1, Quantity: 1, Spend: "$15.99"},
		{Week: "2026-10-05", Purchases: 1, Quantity: 3, Spend: "$109.97"},
		{Week: "2026-10-19", Purchases: 1, Quantity: 2, Spend: "$19.98"},
		{Week: "2026-10-26", Purchases: 1, Quantity: 1, Spend: "$15.99"},
		{Week: "2026-11-02", Purchases: 1, Quantity: 1, Spend: "$9.99"},
	}
	if !equalGroups(st.Weeks, want) {
		t.Errorf("weeks = %+v", st.Weeks)
	}
	for _, args := range []string{`{"group_by":"month"}`, `{"period_days":731}`, `{"period_days":0}`} {
		_, err := e.Tools.Call(context.Background(), e.Session, "get_purchase_statistics", args)
		if _, isErr := toolkit.ModelMessage(toolkit.Result{}, err); !isErr {
			t.Errorf("%s accepted", args)
		}
	}
}

func statsOf(t *testing.T, res toolkit.Result) purchases.Stats {
	t.Helper()
	st, ok := res.Data.(purchases.Stats)
	if !ok {
		t.Fatalf("data = %#v", res.Data)
	}
	return st
}

func equalGroups(got, want []purchases.GroupStat) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}
