package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func promo(code string, kind catalog.PromoKind, value int64) *catalog.PromoCode {
	return &catalog.PromoCode{Code: code, Kind: kind, Value: value, Currency: "USD", Active: true}
}

func createPromo(t *testing.T, db bun.IDB, p *catalog.PromoCode) *catalog.PromoCode {
	t.Helper()
	if err := catalog.CreatePromo(context.Background(), db, p, time.Now()); err != nil {
		t.Fatal(err)
	}
	return p
}

func promoReason(err error) catalog.PromoReason {
	var pe *catalog.PromoError
	if errors.As(err, &pe) {
		return pe.Reason
	}
	return ""
}

// orderWith places c's cart with code.
func orderWith(db bun.IDB, c *catalog.Customer, key, code string) (*catalog.Order, error) {
	return catalog.PlaceOrder(context.Background(), db, catalog.OrderRequest{
		IdempotencyKey: key, Scope: catalog.PersonalCart(c.ID), CustomerID: c.ID,
		Channel: c.Channel, ChatID: c.PlatformUserID,
		Contact: catalog.Contact{Name: "Ann", Phone: "+1 555 0100", Address: "1 Main St"}, PromoCode: code,
	})
}

func TestNormalizePromoCode(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{" spring10 ", "SPRING10"}, {"black-friday_2", "BLACK-FRIDAY_2"},
		{strings.Repeat("A", 10<<10), ""}, {"AB", ""}, {strings.Repeat("A", 33), ""},
		{"X' OR '1'='1", ""}, {"SP;DROP TABLE orders", ""}, {"SPRİNG10", ""}, {"СПРИНГ10", ""},
		{"SPRING 10", ""}, {"CODE\x00", ""}, {"🎁GIFT", ""},
	} {
		got, err := catalog.NormalizePromoCode(tc.in)
		if got != tc.want || (tc.want == "") != errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("NormalizePromoCode(%.40q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestPromoValidate(t *testing.T) {
	now := time.Now()
	earlier := now.Add(-time.Hour)
	for name, p := range map[string]*catalog.PromoCode{
		"percent over 100":  promo("P101", catalog.PromoPercent, 101),
		"zero value":        promo("ZERO", catalog.PromoFixed, 0),
		"bad kind":          {Code: "KIND", Kind: "bogo", Value: 1, Currency: "USD"},
		"bad currency":      {Code: "CUR", Kind: catalog.PromoFixed, Value: 1, Currency: "XXX1"},
		"negative minimum":  {Code: "MIN", Kind: catalog.PromoFixed, Value: 1, Currency: "USD", MinSubtotal: -1},
		"negative limit":    {Code: "LIM", Kind: catalog.PromoFixed, Value: 1, Currency: "USD", MaxUses: -1},
		"ends before start": {Code: "DATES", Kind: catalog.PromoFixed, Value: 1, Currency: "USD", StartsAt: &now, EndsAt: &earlier},
		"bad code":          promo("Ь'--", catalog.PromoFixed, 1),
	} {
		if err := p.Validate(); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
}

// TestQuotePromoRules covers each rule on a cart of $80 running shoes and
// a $20 hat.
func TestQuotePromoRules(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	past, future := now.Add(-time.Hour), now.Add(time.Hour)
	cats := []catalog.Category{
		{ID: 1, Path: "Shoes"}, {ID: 2, Path: "Shoes > Running"}, {ID: 3, Path: "Hats"}, {ID: 4, Path: "Bags"},
	}
	shoes, hats := int64(2), int64(3)
	cart := &catalog.Cart{Items: []catalog.CartItem{
		{Quantity: 2, Product: &catalog.Product{SKU: "S", Price: 4000, Currency: "USD", CategoryID: &shoes}},
		{Quantity: 1, Product: &catalog.Product{SKU: "H", Price: 2000, Currency: "USD", CategoryID: &hats}},
	}}
	with := func(p *catalog.PromoCode, f func(p *catalog.PromoCode)) *catalog.PromoCode { f(p); return p }
	for _, tc := range []struct {
		name     string
		p        *catalog.PromoCode
		used     int
		discount int64
		reason   catalog.PromoReason
	}{
		{"percent", promo("TEN", catalog.PromoPercent, 10), 0, 1000, ""},
		{"fixed", promo("FIVE", catalog.PromoFixed, 500), 0, 500, ""},
		{"fixed capped at subtotal", promo("BIG", catalog.PromoFixed, 50000), 0, 10000, ""},
		{"category covers subcategories", with(promo("SHOE", catalog.PromoPercent, 50), func(p *catalog.PromoCode) { p.CategoryIDs = []int64{1} }), 0, 4000, ""},
		{"wrong category", with(promo("BAGS", catalog.PromoPercent, 50), func(p *catalog.PromoCode) { p.CategoryIDs = []int64{4} }), 0, 0, catalog.PromoWrongCategory},
		{"minimum met", with(promo("MIN", catalog.PromoFixed, 500), func(p *catalog.PromoCode) { p.MinSubtotal = 10000 }), 0, 500, ""},
		{"under minimum", with(promo("MIN", catalog.PromoFixed, 500), func(p *catalog.PromoCode) { p.MinSubtotal = 10001 }), 0, 0, catalog.PromoUnderMinimum},
		{"minimum on eligible lines", with(promo("HATMIN", catalog.PromoFixed, 500), func(p *catalog.PromoCode) { p.CategoryIDs = []int64{3}; p.MinSubtotal = 3000 }), 0, 0, catalog.PromoUnderMinimum},
		{"expired", with(promo("OLD", catalog.PromoPercent, 10), func(p *catalog.PromoCode) { p.EndsAt = &past }), 0, 0, catalog.PromoExpired},
		{"ends exactly now", with(promo("NOW", catalog.PromoPercent, 10), func(p *catalog.PromoCode) { p.EndsAt = &now }), 0, 0, catalog.PromoExpired},
		{"not yet valid", with(promo("SOON", catalog.PromoPercent, 10), func(p *catalog.PromoCode) { p.StartsAt = &future }), 0, 0, catalog.PromoNotStarted},
		{"within dates", with(promo("LIVE", catalog.PromoPercent, 10), func(p *catalog.PromoCode) { p.StartsAt, p.EndsAt = &past, &future }), 0, 1000, ""},
		{"used up", with(promo("GONE", catalog.PromoPercent, 10), func(p *catalog.PromoCode) { p.MaxUses, p.Uses = 3, 3 }), 0, 0, catalog.PromoExhausted},
		{"uses left", with(promo("LEFT", catalog.PromoPercent, 10), func(p *catalog.PromoCode) { p.MaxUses, p.Uses = 3, 2 }), 0, 1000, ""},
		{"per-customer limit", with(promo("ONCE", catalog.PromoPercent, 10), func(p *catalog.PromoCode) { p.PerCustomer = 1 }), 1, 0, catalog.PromoCustomerLimit},
		{"per-customer left", with(promo("TWICE", catalog.PromoPercent, 10), func(p *catalog.PromoCode) { p.PerCustomer = 2 }), 1, 1000, ""},
		{"disabled", with(promo("OFF", catalog.PromoPercent, 10), func(p *catalog.PromoCode) { p.Active = false }), 0, 0, catalog.PromoDisabled},
		{"other currency", with(promo("EUR", catalog.PromoFixed, 500), func(p *catalog.PromoCode) { p.Currency = "EUR" }), 0, 0, catalog.PromoCurrency},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := catalog.QuotePromo(tc.p, cart, cats, tc.used, now)
			var reason catalog.PromoReason
			if q.Problem != nil {
				reason = q.Problem.Reason
				if !strings.Contains(q.Problem.Msg, tc.p.Code) {
					t.Errorf("message %q does not name the code", q.Problem.Msg)
				}
			}
			if q.Discount != tc.discount || reason != tc.reason {
				t.Errorf("quote = %d, %q (%v); want %d, %q", q.Discount, reason, q.Problem, tc.discount, tc.reason)
			}
		})
	}
	if q := catalog.QuotePromo(promo("EMPTY", catalog.PromoFixed, 1), &catalog.Cart{}, nil, 0, now); q.Problem == nil || q.Problem.Reason != catalog.PromoUnderMinimum {
		t.Errorf("empty cart: %+v", q)
	}
}

func TestApplyCartPromo(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		now := time.Now()
		past := now.Add(-time.Hour)
		seed(t, db, product("A-1", 4000, 10), product("H-1", 2000, 10, "Hats"))
		ann := customer(t, db, "telegram", "1")
		scope := catalog.PersonalCart(ann.ID)
		createPromo(t, db, promo("SPRING10", catalog.PromoPercent, 10))
		min := promo("BIG100", catalog.PromoFixed, 1000)
		min.MinSubtotal = 10000
		createPromo(t, db, min)
		old := promo("OLD", catalog.PromoFixed, 100)
		old.EndsAt = &past
		createPromo(t, db, old)

		// Bad and inapplicable codes change nothing.
		for code, want := range map[string]error{
			"NOPE": catalog.ErrPromo, "old": catalog.ErrPromo, strings.Repeat("x", 10<<10): catalog.ErrInvalid,
			"' OR 1=1 --": catalog.ErrInvalid, "ПРОМО": catalog.ErrInvalid,
		} {
			if _, err := catalog.ApplyCartPromo(ctx, db, scope, ann.ID, code, now); !errors.Is(err, want) {
				t.Errorf("apply %.20q: err = %v, want %v", code, err, want)
			}
			if c := mustCart(t)(catalog.GetCart(ctx, db, scope)); c.PromoCode != "" {
				t.Fatalf("apply %.20q left code %q on the cart", code, c.PromoCode)
			}
		}

		// A code waiting for the minimum is kept, with what is missing.
		q, err := catalog.ApplyCartPromo(ctx, db, scope, ann.ID, "big100", now)
		if err != nil || q.Problem == nil || q.Problem.Reason != catalog.PromoUnderMinimum {
			t.Fatalf("apply under minimum = %+v, %v", q, err)
		}
		mustCart(t)(catalog.AddToCart(ctx, db, scope, "A-1", 3, ann.ID))
		c := mustCart(t)(catalog.GetCart(ctx, db, scope))
		if c.PromoCode != "BIG100" || c.Promo == nil || c.Promo.Discount != 1000 || c.Promo.Problem != nil {
			t.Fatalf("cart promo after reaching the minimum = %q %+v", c.PromoCode, c.Promo)
		}
		// Applying another replaces it; removing takes it off.
		if q, err := catalog.ApplyCartPromo(ctx, db, scope, ann.ID, " spring10 ", now); err != nil || q.Discount != 1200 {
			t.Fatalf("apply SPRING10 = %+v, %v", q, err)
		}
		if err := catalog.RemoveCartPromo(ctx, db, scope); err != nil {
			t.Fatal(err)
		}
		if c := mustCart(t)(catalog.GetCart(ctx, db, scope)); c.PromoCode != "" || c.Promo != nil {
			t.Errorf("after remove: %q %+v", c.PromoCode, c.Promo)
		}
	})
}

func TestOrderRedeemsPromo(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 4000, 50), product("H-1", 2000, 50, "Hats"))
		ann, bob := customer(t, db, "telegram", "1"), customer(t, db, "telegram", "2")
		once := promo("ONCE", catalog.PromoPercent, 25)
		once.PerCustomer = 1
		createPromo(t, db, once)
		all, err := catalog.ListCategories(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		hats := promo("HATS", catalog.PromoFixed, 500)
		hats.CategoryIDs = []int64{categoryByPath(t, all, "Hats").ID}
		createPromo(t, db, hats)

		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "A-1", 1, ann.ID))
		if _, err := catalog.ApplyCartPromo(ctx, db, catalog.PersonalCart(ann.ID), ann.ID, "ONCE", time.Now()); err != nil {
			t.Fatal(err)
		}
		o, err := orderWith(db, ann, "k1", "ONCE")
		if err != nil {
			t.Fatal(err)
		}
		if o.PromoCode != "ONCE" || o.DiscountCents != 1000 || o.Total != 3000 {
			t.Fatalf("order = code %q discount %d total %d", o.PromoCode, o.DiscountCents, o.Total)
		}
		if c := mustCart(t)(catalog.GetCart(ctx, db, catalog.PersonalCart(ann.ID))); c.PromoCode != "" {
			t.Errorf("the order left code %q on the cart", c.PromoCode)
		}
		// A replay of the turn returns the order without a second use.
		if again, err := orderWith(db, ann, "k1", "ONCE"); err != nil || again.ID != o.ID {
			t.Fatalf("replay = %+v, %v", again, err)
		}
		if p, _ := catalog.GetPromo(ctx, db, "ONCE"); p.Uses != 1 {
			t.Errorf("uses after replay = %d, want 1", p.Uses)
		}

		// Per customer: Ann used it, Bob has not.
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "A-1", 1, ann.ID))
		if _, err := orderWith(db, ann, "k2", "ONCE"); promoReason(err) != catalog.PromoCustomerLimit {
			t.Errorf("second use by Ann: err = %v", err)
		}
		if _, err := catalog.ApplyCartPromo(ctx, db, catalog.PersonalCart(ann.ID), ann.ID, "ONCE", time.Now()); promoReason(err) != catalog.PromoCustomerLimit {
			t.Errorf("apply by Ann again: err = %v", err)
		}
		// Wrong category and unknown codes fail the order, which changes nothing.
		if _, err := orderWith(db, ann, "k3", "HATS"); promoReason(err) != catalog.PromoWrongCategory {
			t.Errorf("hats code on shoes: err = %v", err)
		}
		if _, err := orderWith(db, ann, "k4", "NOPE"); promoReason(err) != catalog.PromoUnknown {
			t.Errorf("unknown code: err = %v", err)
		}
		if got := stockOf(t, db, "A-1"); got != 49 {
			t.Errorf("stock after refused orders = %d, want 49", got)
		}
		if p, _ := catalog.GetPromo(ctx, db, "HATS"); p.Uses != 0 {
			t.Errorf("a refused order took a use: %d", p.Uses)
		}
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(bob.ID), "H-1", 2, bob.ID))
		if o, err := orderWith(db, bob, "k5", "HATS"); err != nil || o.DiscountCents != 500 || o.Total != 3500 {
			t.Fatalf("Bob's hats order = %+v, %v", o, err)
		}
		rs, err := catalog.PromoRedemptions(ctx, db, hats.ID, 10)
		if err != nil || len(rs) != 1 || rs[0].CustomerID != bob.ID || rs[0].Discount != 500 {
			t.Errorf("redemptions = %+v, %v", rs, err)
		}

		// Cancelling Ann's order gives her use of ONCE back, once: she can
		// order with it again (the limit counted the cancelled order before).
		if _, applied, err := catalog.CancelOrder(ctx, db, catalog.OrderChange{Number: o.Number, FormKey: "c1", Staff: "admin"}); err != nil || !applied {
			t.Fatalf("cancel: applied %v, %v", applied, err)
		}
		if _, applied, err := catalog.CancelOrder(ctx, db, catalog.OrderChange{Number: o.Number, FormKey: "c1", Staff: "admin"}); err != nil || applied {
			t.Fatalf("cancel again: applied %v, %v", applied, err)
		}
		if p, _ := catalog.GetPromo(ctx, db, "ONCE"); p.Uses != 0 {
			t.Errorf("uses after cancelling = %d, want 0", p.Uses)
		}
		if o2, err := orderWith(db, ann, "k2b", "ONCE"); err != nil || o2.DiscountCents == 0 {
			t.Errorf("Ann after her cancelled order: %+v, %v", o2, err)
		}
		if p, _ := catalog.GetPromo(ctx, db, "ONCE"); p.Uses != 1 {
			t.Errorf("uses after ordering again = %d, want 1", p.Uses)
		}

		// Expired at checkout time.
		past := time.Now().Add(-time.Minute)
		hats.EndsAt = &past
		if err := catalog.UpdatePromo(ctx, db, hats, time.Now()); err != nil {
			t.Fatal(err)
		}
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(bob.ID), "H-1", 1, bob.ID))
		if _, err := orderWith(db, bob, "k6", "HATS"); promoReason(err) != catalog.PromoExpired {
			t.Errorf("expired code: err = %v", err)
		}
	})
}

func TestUpdatePromoKeepsLimitAboveUses(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 1000, 10))
		ann := customer(t, db, "web", "a")
		p := createPromo(t, db, promo("LIMIT", catalog.PromoFixed, 100))
		for i := range 2 {
			mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "A-1", 1, ann.ID))
			if _, err := orderWith(db, ann, fmt.Sprint("k", i), "LIMIT"); err != nil {
				t.Fatal(err)
			}
		}
		p.MaxUses = 1
		if err := catalog.UpdatePromo(ctx, db, p, time.Now()); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("limit under uses: err = %v", err)
		}
		if got, _ := catalog.GetPromo(ctx, db, "LIMIT"); got.MaxUses != 0 || got.Uses != 2 {
			t.Errorf("after refused update: %+v", got)
		}
		if err := catalog.CreatePromo(ctx, db, promo("limit", catalog.PromoFixed, 5), time.Now()); !errors.Is(err, catalog.ErrConflict) {
			t.Errorf("duplicate code: err = %v", err)
		}
		if err := catalog.SetPromoActive(ctx, db, p.ID, false, time.Now()); err != nil {
			t.Fatal(err)
		}
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "A-1", 1, ann.ID))
		if _, err := orderWith(db, ann, "k9", "LIMIT"); promoReason(err) != catalog.PromoDisabled {
			t.Errorf("disabled code: err = %v", err)
		}
	})
}

// TestPromoLimitUnderConcurrency: 50 shoppers check out at once with a
// code limited to 10 uses. Exactly 10 orders get the discount; the other
// 40 are refused with "used up" (the checkout then offers them the order
// without it), and the code's count stops at 10.
func TestPromoLimitUnderConcurrency(t *testing.T) {
	catalogtest.EachReplicas(t, 4, func(t *testing.T, dbs []*bun.DB) {
		ctx := context.Background()
		db := dbs[0]
		seed(t, db, product("A-1", 1000, 1000))
		p := promo("TEN4TEN", catalog.PromoPercent, 10)
		p.MaxUses = 10
		createPromo(t, db, p)
		buyers := make([]*catalog.Customer, 50)
		for i := range buyers {
			buyers[i] = customer(t, db, "web", fmt.Sprint("buyer-", i))
			mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(buyers[i].ID), "A-1", 1, buyers[i].ID))
		}
		var (
			wg               sync.WaitGroup
			mu               sync.Mutex
			discounted, used int
		)
		start := make(chan struct{})
		for i, b := range buyers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				o, err := orderWith(dbs[i%len(dbs)], b, fmt.Sprint("race-", i), "TEN4TEN")
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil && o.DiscountCents == 100 && o.Total == 900:
					discounted++
				case promoReason(err) == catalog.PromoExhausted:
					used++
				default:
					t.Errorf("buyer %d: %+v, %v", i, o, err)
				}
			}()
		}
		close(start)
		wg.Wait()
		if discounted != 10 || used != 40 {
			t.Errorf("discounted %d, used up %d; want 10 and 40", discounted, used)
		}
		got, err := catalog.GetPromo(ctx, db, "TEN4TEN")
		if err != nil || got.Uses != 10 {
			t.Errorf("uses = %+v, %v; want 10", got, err)
		}
		var orders, redemptions int64
		orders, _ = db.NewSelect().Model((*catalog.Order)(nil)).Where("promo_code = ?", "TEN4TEN").Count(ctx)
		redemptions, _ = db.NewSelect().Model((*catalog.PromoRedemption)(nil)).Count(ctx)
		if orders != 10 || redemptions != 10 {
			t.Errorf("orders with the code %d, redemptions %d; want 10 and 10", orders, redemptions)
		}
		// The refused shoppers still have their carts and can order without it.
		if o, err := orderWith(db, buyers[len(buyers)-1], "after", ""); err == nil && o.DiscountCents != 0 {
			t.Errorf("order without the code got a discount: %+v", o)
		}
		// The CHECK constraint backs the conditional update.
		if _, err := db.NewUpdate().Model((*catalog.PromoCode)(nil)).Set("uses = 11").Where("id = ?", p.ID).Exec(ctx); err == nil {
			t.Error("schema accepted uses over the limit")
		}
	})
}

// TestPerCustomerLimitUnderConcurrency: one shopper checks out eight
// carts (a personal one and seven group chats) at once with a code
// allowed once per customer: one order gets it.
func TestPerCustomerLimitUnderConcurrency(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 1000, 100))
		ann := customer(t, db, "slack", "U1")
		p := promo("ONCEEACH", catalog.PromoFixed, 100)
		p.PerCustomer = 1
		createPromo(t, db, p)
		scopes := []catalog.CartScope{catalog.PersonalCart(ann.ID)}
		for i := range 7 {
			scopes = append(scopes, catalog.SharedCart("slack", fmt.Sprint("C", i)))
		}
		for _, s := range scopes {
			mustCart(t)(catalog.AddToCart(ctx, db, s, "A-1", 1, ann.ID))
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		won := 0
		for i, s := range scopes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := catalog.PlaceOrder(ctx, db, catalog.OrderRequest{
					IdempotencyKey: fmt.Sprint("k", i), Scope: s, CustomerID: ann.ID, Channel: "slack", ChatID: s.ChatID,
					Contact: catalog.Contact{Name: "Ann", Phone: "+1 555 0100", Address: "1 Main St"}, PromoCode: "ONCEEACH",
				})
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					won++
				case promoReason(err) != catalog.PromoCustomerLimit:
					t.Errorf("order %d: %v", i, err)
				}
			}()
		}
		wg.Wait()
		if won != 1 {
			t.Errorf("%d orders got a once-per-customer code", won)
		}
	})
}
