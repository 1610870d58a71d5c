package tools

import (
	"context"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/engine/session"
)

// placeTestOrder puts lines in the session's cart, orders them under key
// and dates the order daysAgo days before fixedNow.
func placeTestOrder(t *testing.T, e *testEnv, s *session.Session, key string, daysAgo int, lines map[string]int) *catalog.Order {
	t.Helper()
	ctx := context.Background()
	for sku, qty := range lines {
		if _, err := catalog.AddToCart(ctx, e.db, s.Scope, sku, qty, s.Customer.ID); err != nil {
			t.Fatal(err)
		}
	}
	o, err := catalog.PlaceOrder(ctx, e.db, catalog.OrderRequest{
		IdempotencyKey: key, Scope: s.Scope, CustomerID: s.Customer.ID, Channel: s.Channel, ChatID: s.ChatID,
		Contact: catalog.Contact{Name: "Ann Lee", Phone: "+1 555 0100", Address: "1 Main St"},
	})
	if err != nil {
		t.Fatal(err)
	}
	o.CreatedAt = fixedNow.AddDate(0, 0, -daysAgo)
	if _, err := e.db.NewUpdate().Model(o).Column("created_at").WherePK().Exec(ctx); err != nil {
		t.Fatal(err)
	}
	return o
}

// seedPurchaseHabits gives the session's shopper a history: coffee every
// 14 days (last 18 days ago), dog food every 30 days (last 20 days ago),
// running shoes once, a cancelled order and an order from 200 days ago.
func seedPurchaseHabits(t *testing.T, e *testEnv) {
	t.Helper()
	s := e.session
	placeTestOrder(t, e, s, "h1", 60, map[string]int{"GRO-COF-001": 1})
	placeTestOrder(t, e, s, "h2", 50, map[string]int{"PET-DGF-001": 1})
	placeTestOrder(t, e, s, "h3", 46, map[string]int{"GRO-COF-001": 2, "SHO-RUN-001-42": 1})
	placeTestOrder(t, e, s, "h4", 32, map[string]int{"GRO-COF-001": 2})
	placeTestOrder(t, e, s, "h5", 20, map[string]int{"PET-DGF-001": 1})
	placeTestOrder(t, e, s, "h6", 18, map[string]int{"GRO-COF-001": 1})
	cancelled := placeTestOrder(t, e, s, "h7", 10, map[string]int{"OFF-STA-004": 5})
	placeTestOrder(t, e, s, "h8", 200, map[string]int{"TOY-BLD-004": 1})
	if _, err := catalog.SetOrderStatus(context.Background(), e.db, cancelled.Number, catalog.StatusCancelled, ""); err != nil {
		t.Fatal(err)
	}
	other := newTestSession(t, e.db, "web", "someone-else")
	placeTestOrder(t, e, other, "x1", 5, map[string]int{"GRO-COF-001": 3})
}

func TestPurchaseStatisticsByItem(t *testing.T) {
	e := newTestEnv(t)
	seedPurchaseHabits(t, e)
	st := statsOf(t, e.call(t, "get_purchase_statistics", `{}`))
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
	msg, _ := ModelMessage(Result{Data: st}, nil)
	if strings.Count(msg, "avg_days_between") != 2 || strings.Contains(msg, "OFF-STA-004") {
		t.Errorf("model data = %s", msg)
	}

	if st := statsOf(t, e.call(t, "get_purchase_statistics", `{"period_days":365}`)); st.Orders != 7 || len(st.Items) != 4 {
		t.Errorf("a year: %d orders, %d items", st.Orders, len(st.Items))
	}
	if st := statsOf(t, e.call(t, "get_purchase_statistics", `{"period_days":1}`)); !st.Empty || st.Orders != 0 {
		t.Errorf("one day: %+v", st)
	}
}

func TestPurchaseStatisticsGrouped(t *testing.T) {
	e := newTestEnv(t)
	seedPurchaseHabits(t, e)
	st := statsOf(t, e.call(t, "get_purchase_statistics", `{"group_by":"category"}`))
	want := []groupStat{
		{Category: "Grocery > Coffee & Tea", Purchases: 4, Quantity: 6, Spend: "$59.94"},
		{Category: "Pets > Dog Food", Purchases: 2, Quantity: 2, Spend: "$31.98"},
		{Category: "Shoes > Running", Purchases: 1, Quantity: 1, Spend: "$89.99"},
	}
	if len(st.Items) != 0 || !equalGroups(st.Categories, want) {
		t.Errorf("categories = %+v", st.Categories)
	}
	st = statsOf(t, e.call(t, "get_purchase_statistics", `{"group_by":"week","period_days":90}`))
	want = []groupStat{
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
		_, err := e.tools.Call(context.Background(), e.session, "get_purchase_statistics", args)
		if _, isErr := ModelMessage(Result{}, err); !isErr {
			t.Errorf("%s accepted", args)
		}
	}
}

func statsOf(t *testing.T, res Result) purchaseStats {
	t.Helper()
	st, ok := res.Data.(purchaseStats)
	if !ok {
		t.Fatalf("data = %#v", res.Data)
	}
	return st
}

func equalGroups(got, want []groupStat) bool {
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
