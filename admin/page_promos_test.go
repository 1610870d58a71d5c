package admin_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func promoForm(code, kind, value string) url.Values {
	return url.Values{"code": {code}, "kind": {kind}, "value": {value}, "active": {"1"}}
}

// TestPromosCreateEditDisable: a code is created with its rules, edited,
// disabled and enabled; bad input is reported and writes nothing; a
// request without the CSRF token changes nothing.
func TestPromosCreateEditDisable(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		p := newPanel(t, db)
		p.signIn()
		ctx := context.Background()
		f := promoForm("spring10", "fixed", "5.50")
		f.Set("min_subtotal", "50")
		f.Set("starts_at", "2026-03-01T00:00")
		f.Set("ends_at", "2026-04-01T00:00")
		f.Set("max_uses", "100")
		f.Set("per_customer", "1")
		code, loc, body := p.post("/admin/promos/new", f)
		if code != http.StatusSeeOther || loc != "/admin/promos" {
			t.Fatalf("create = %d %s:\n%.2000s", code, loc, body)
		}
		got, err := catalog.GetPromo(ctx, db, "SPRING10")
		if err != nil || got.Kind != catalog.PromoFixed || got.Value != 550 || got.MinSubtotal != 5000 || got.MaxUses != 100 ||
			got.PerCustomer != 1 || got.StartsAt == nil || got.EndsAt == nil || got.EndsAt.Month() != 4 || !got.Active {
			t.Fatalf("stored = %+v, %v", got, err)
		}
		if code, body := p.get("/admin/promos"); code != http.StatusOK || !strings.Contains(body, "SPRING10") || !strings.Contains(body, "$5.50") {
			t.Errorf("list = %d:\n%.2000s", code, body)
		}

		// Hostile and bad input: shown again with the reason, nothing written.
		for name, form := range map[string]url.Values{
			"10 KB code":    promoForm(strings.Repeat("A", 10<<10), "percent", "10"),
			"sql-ish code":  promoForm("X' OR '1'='1", "percent", "10"),
			"unicode code":  promoForm("ВЕСНА10", "percent", "10"),
			"percent > 100": promoForm("MANY", "percent", "150"),
			"bad amount":    promoForm("AMT", "fixed", "1e9"),
			"bad kind":      promoForm("KIND", "bogo", "1"),
			"duplicate":     promoForm("Spring10", "percent", "10"),
			"bad date":      func() url.Values { v := promoForm("DATE", "percent", "10"); v.Set("ends_at", "tomorrow"); return v }(),
			"bad category":  func() url.Values { v := promoForm("CAT", "percent", "10"); v.Set("category", "shoes"); return v }(),
		} {
			code, _, body := p.post("/admin/promos/new", form)
			if code != http.StatusBadRequest || !strings.Contains(body, `class="error"`) {
				t.Errorf("%s: %d:\n%.1500s", name, code, body)
			}
		}
		if ps, _ := catalog.ListPromos(ctx, db); len(ps) != 1 {
			t.Errorf("bad input wrote codes: %d", len(ps))
		}

		// Edit: a percent code restricted to a category.
		cats, _ := catalog.ListCategories(ctx, db)
		e := promoForm("SPRING10", "percent", "15")
		e.Set("category", fmt.Sprint(cats[0].ID))
		if code, loc, body := p.post(fmt.Sprintf("/admin/promos/%d", got.ID), e); code != http.StatusSeeOther || loc != "/admin/promos" {
			t.Fatalf("edit = %d %s:\n%.2000s", code, loc, body)
		}
		if p2, _ := catalog.GetPromo(ctx, db, "SPRING10"); p2.Value != 15 || len(p2.CategoryIDs) != 1 || p2.CategoryIDs[0] != cats[0].ID || p2.EndsAt != nil {
			t.Errorf("after edit: %+v", p2)
		}
		if code, body := p.get(fmt.Sprintf("/admin/promos/%d", got.ID)); code != http.StatusOK || !strings.Contains(body, "selected>"+cats[0].Path) {
			t.Errorf("edit page = %d:\n%.3000s", code, body)
		}

		// Disable needs the CSRF token; then it disables, and enables.
		if code, _, _ := p.post(fmt.Sprintf("/admin/promos/%d/active", got.ID), url.Values{"csrf": {"forged"}}); code == http.StatusSeeOther {
			t.Error("disable without the CSRF token went through")
		}
		if p2, _ := catalog.GetPromo(ctx, db, "SPRING10"); !p2.Active {
			t.Fatal("a forged request disabled the code")
		}
		if code, _, _ := p.post(fmt.Sprintf("/admin/promos/%d/active", got.ID), url.Values{}); code != http.StatusSeeOther {
			t.Fatalf("disable = %d", code)
		}
		if p2, _ := catalog.GetPromo(ctx, db, "SPRING10"); p2.Active {
			t.Error("still active after disable")
		}
		if code, _, _ := p.post(fmt.Sprintf("/admin/promos/%d/active", got.ID), url.Values{"active": {"1"}}); code != http.StatusSeeOther {
			t.Fatalf("enable = %d", code)
		}
		if p2, _ := catalog.GetPromo(ctx, db, "SPRING10"); !p2.Active {
			t.Error("not active after enable")
		}
		if code, _ := p.get("/admin/promos/999999"); code != http.StatusNotFound {
			t.Errorf("unknown code page = %d", code)
		}
	})
}

// TestPromoEditShowsPlainAmounts: the edit form shows amounts as its
// inputs take them back ("5.50", not "5.50 USD"), so saving the page
// unchanged works.
func TestPromoEditShowsPlainAmounts(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	p.signIn()
	f := promoForm("PLAIN5", "fixed", "5.50")
	f.Set("min_subtotal", "50")
	if code, _, body := p.post("/admin/promos/new", f); code != http.StatusSeeOther {
		t.Fatalf("create = %d:\n%.2000s", code, body)
	}
	got, err := catalog.GetPromo(context.Background(), p.db, "PLAIN5")
	if err != nil {
		t.Fatal(err)
	}
	_, body := p.get(fmt.Sprintf("/admin/promos/%d", got.ID))
	for _, want := range []string{`name="value" value="5.50"`, `name="min_subtotal" value="50.00"`} {
		if !strings.Contains(body, want) {
			t.Errorf("edit page lacks %s", want)
		}
	}
	f.Del("code")
	f.Set("code", "PLAIN5")
	f.Set("value", "5.50")
	f.Set("min_subtotal", "50.00")
	if code, _, body := p.post(fmt.Sprintf("/admin/promos/%d", got.ID), f); code != http.StatusSeeOther {
		t.Errorf("saving the shown values = %d:\n%.2000s", code, body)
	}
}
