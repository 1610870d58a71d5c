package admin_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"shopbot/admin"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func settingsForm() url.Values {
	return url.Values{
		"shop_name": {"Nordvik Outdoor"}, "currency": {"eur"}, "prompt_extra": {"Always mention free returns."},
		"model": {"gpt-4.1-mini"}, "max_rounds": {"3"}, "rate_limit": {"7"}, "rate_window": {"2m"},
	}
}

// TestSettingsSaveAndApply: saved settings are what the engine's hook
// reads next; bad values are refused and change nothing.
func TestSettingsSaveAndApply(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	p.signIn()
	ctx := context.Background()
	first := settingsForm()
	first.Set("version", p.settingsOpened())
	if code, _, body := p.post("/admin/settings", first); code != http.StatusSeeOther {
		t.Fatalf("save = %d:\n%s", code, body)
	}
	hook := catalog.NewSettingsStore(p.db, catalog.Settings{ShopName: "Default"}).Get
	o, err := hook(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if o.ShopName != "Nordvik Outdoor" || o.Currency != "EUR" || o.PromptExtra != "Always mention free returns." ||
		o.Model != "gpt-4.1-mini" || o.MaxRounds != 3 || o.RateLimit != 7 || o.RateWindow != 2*time.Minute {
		t.Errorf("overrides %+v", o)
	}
	for field, bad := range map[string]string{
		"shop_name": " ", "currency": "EURO", "max_rounds": "0", "rate_limit": "lots", "rate_window": "forever", "model": "gpt 4",
	} {
		form := settingsForm()
		form.Set("version", p.settingsOpened())
		form.Set("shop_name", "Changed")
		if field == "shop_name" {
			form.Set("shop_name", bad)
		} else {
			form.Set(field, bad)
		}
		code, _, body := p.post("/admin/settings", form)
		if code != http.StatusBadRequest || !strings.Contains(body, `class="error"`) {
			t.Errorf("%s=%q: %d", field, bad, code)
		}
	}
	if o, _ := hook(ctx); o.ShopName != "Nordvik Outdoor" {
		t.Errorf("a refused form changed the shop name to %q", o.ShopName)
	}
	_, body := p.get("/admin/")
	if !strings.Contains(body, "Nordvik Outdoor") {
		t.Error("the panel does not show the new shop name")
	}
}

func TestStaffUsers(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	p.signIn()
	if code, _, _ := p.post("/admin/staff", url.Values{"username": {"sam"}, "password": {"short"}}); code != http.StatusBadRequest {
		t.Errorf("short password = %d", code)
	}
	if code, _, _ := p.post("/admin/staff", url.Values{"username": {"sam"}, "password": {"sam's long password"}}); code != http.StatusSeeOther {
		t.Fatalf("add = %d", code)
	}
	if code, _, _ := p.post("/admin/staff", url.Values{"username": {"sam"}, "password": {"another long one"}}); code != http.StatusConflict {
		t.Errorf("duplicate = %d", code)
	}
	sam := newPanel(t, p.db)
	if code, loc, _ := sam.tryLogin("sam", "sam's long password"); code != http.StatusSeeOther || loc != "/admin/" {
		t.Fatalf("sam signs in: %d", code)
	}
	var id int64
	p.db.NewRaw("SELECT id FROM staff_users WHERE username = 'sam'").Scan(context.Background(), &id)
	var adminID int64
	p.db.NewRaw("SELECT id FROM staff_users WHERE username = 'admin'").Scan(context.Background(), &adminID)
	if code, _, _ := p.post("/admin/staff/"+itoa(adminID)+"/delete", nil); code != http.StatusBadRequest {
		t.Errorf("removing admin = %d", code)
	}
	if code, _, _ := p.post("/admin/staff/"+itoa(id)+"/delete", nil); code != http.StatusSeeOther {
		t.Fatalf("remove = %d", code)
	}
	if code, _ := sam.get("/admin/"); code != http.StatusSeeOther {
		t.Error("a removed user's session still works")
	}
}

func TestMetricsToken(t *testing.T) {
	s := admin.Handler(admin.New(admin.Config{Registry: prometheus.NewRegistry(), MetricsToken: "s3cret", Ready: func(context.Context) error { return nil }}), nil)
	for _, tc := range []struct {
		auth string
		code int
	}{{"", 401}, {"Bearer wrong", 401}, {"s3cret", 401}, {"Bearer s3cret", 200}} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/metrics", nil)
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		s.ServeHTTP(rec, req)
		if rec.Code != tc.code {
			t.Errorf("Authorization %q = %d, want %d", tc.auth, rec.Code, tc.code)
		}
	}
}

func TestDashboardFigures(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	seed(t, p.db)
	p.signIn()
	_, body := p.get("/admin/")
	for _, want := range []string{
		"100.0 %",           // the one conversation placed an order
		"unobtainium boots", // top search and zero-result search
		"2 model calls",     // from the seeded transcript
		"<svg", "<rect", "need a human",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("dashboard lacks %q", want)
		}
	}
	if !strings.Contains(body, `id="zero-searches"><tbody><tr><td>unobtainium boots</td>`) {
		t.Error("zero-result searches lack the failed query")
	}
}

// TestShopMetrics: orders by status, open carts and conversations waiting
// for a person are read from the database at scrape time.
func TestShopMetrics(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	f := seed(t, p.db)
	rec := httptest.NewRecorder()
	p.handler.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	for _, want := range []string{
		`shopbot_orders{status="new"} 1`,
		`shopbot_order_revenue_minor{currency="` + f.order.Currency + `",status="new"} ` + itoa(f.order.Total), `shopbot_orders{status="shipped"} 0`, "shopbot_carts_open 0",
		"shopbot_conversations_needing_human 1", "shopbot_conversations_taken_over 0", "shopbot_shop_metrics_up 1",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}
