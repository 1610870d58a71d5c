package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func deliveryForm(name string) url.Values {
	return url.Values{
		"name": {name}, "price": {"12.50"}, "free_over": {"100"}, "countries": {"ca, Germany"},
		"days_min": {"3"}, "days_max": {"6"}, "active": {"1"}, "position": {"2"},
	}
}

// TestDeliveryPage: the merchant adds, edits and removes delivery methods
// and sets the shop's country; bad input and a missing CSRF token change
// nothing.
func TestDeliveryPage(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		p := newPanel(t, db)
		p.signIn()
		if code, _, body := p.post("/admin/settings/delivery", deliveryForm("Courier")); code != http.StatusSeeOther {
			t.Fatalf("add = %d:\n%.1500s", code, body)
		}
		ms, _ := catalog.ListDeliveryMethods(ctx, db)
		if len(ms) != 1 || ms[0].Name != "Courier" || ms[0].Price != 1250 || ms[0].FreeOver != 10000 ||
			ms[0].Countries != "CA,DE" || ms[0].DaysMin != 3 || ms[0].DaysMax != 6 || !ms[0].Active || ms[0].Pickup {
			t.Fatalf("stored %+v", ms)
		}
		id := strconv.FormatInt(ms[0].ID, 10)
		_, page := p.get("/admin/settings/delivery")
		if !strings.Contains(page, `value="Courier"`) || !strings.Contains(page, `value="12.50"`) || !strings.Contains(page, `value="CA,DE"`) {
			t.Errorf("page does not show the method:\n%.3000s", page)
		}

		for field, bad := range map[string]string{
			"name": " ", "price": "cheap", "free_over": "-5", "countries": "Atlantis", "days_min": "9", "days_max": "x",
		} {
			form := deliveryForm("Courier")
			form.Set(field, bad)
			if code, _, body := p.post("/admin/settings/delivery/"+id, form); code != http.StatusBadRequest || !strings.Contains(body, `class="error"`) {
				t.Errorf("%s=%q: %d", field, bad, code)
			}
		}
		if code, _, _ := p.post("/admin/settings/delivery", deliveryForm("COURIER")); code != http.StatusBadRequest {
			t.Errorf("duplicate name = %d", code)
		}
		// Without the session's CSRF token: 403, nothing changed.
		form := deliveryForm("Hijacked")
		form.Set("csrf", "forged")
		if code, _, _ := p.post("/admin/settings/delivery/"+id, form); code != http.StatusForbidden {
			t.Errorf("forged CSRF = %d", code)
		}
		if code, _, _ := p.post("/admin/settings/delivery/"+id+"/delete", url.Values{"csrf": {"forged"}}); code != http.StatusForbidden {
			t.Errorf("forged CSRF delete = %d", code)
		}
		if m, _ := catalog.GetDeliveryMethod(ctx, db, ms[0].ID); m == nil || m.Name != "Courier" || m.Price != 1250 {
			t.Fatalf("refused posts changed the method: %+v", m)
		}

		form = deliveryForm("Store pickup")
		form.Set("pickup", "1")
		form.Set("countries", "any")
		form.Set("price", "0")
		form.Del("active")
		if code, _, _ := p.post("/admin/settings/delivery/"+id, form); code != http.StatusSeeOther {
			t.Fatalf("edit = %d", code)
		}
		if m, _ := catalog.GetDeliveryMethod(ctx, db, ms[0].ID); m.Name != "Store pickup" || !m.Pickup || m.Active || m.Countries != "any" {
			t.Errorf("edited %+v", m)
		}

		if code, _, _ := p.post("/admin/settings/delivery/country", url.Values{"country": {"Narnia"}}); code != http.StatusBadRequest {
			t.Errorf("unknown country = %d", code)
		}
		if code, _, _ := p.post("/admin/settings/delivery/country", url.Values{"country": {"canada"}}); code != http.StatusSeeOther {
			t.Errorf("country = %d", code)
		}
		if c, _ := catalog.DefaultCountry(ctx, db); c != "CA" {
			t.Errorf("default country = %q", c)
		}

		if code, _, _ := p.post("/admin/settings/delivery/"+id+"/delete", url.Values{}); code != http.StatusSeeOther {
			t.Fatalf("delete = %d", code)
		}
		if code, _, _ := p.post("/admin/settings/delivery/"+id+"/delete", url.Values{}); code != http.StatusNotFound {
			t.Errorf("second delete = %d", code)
		}
		if ms, _ := catalog.ListDeliveryMethods(ctx, db); len(ms) != 0 {
			t.Errorf("left %+v", ms)
		}
	})
}
