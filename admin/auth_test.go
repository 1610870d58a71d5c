package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"shopbot/admin"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func TestSignedOutIsSentToSignIn(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	for _, path := range []string{"/admin/", "/admin/products", "/admin/orders", "/admin/conversations/1", "/admin/settings", "/admin/playground/trace?session=aaaaaaaaaaaaaaaaaaaa"} {
		code, loc, _ := p.do("GET", path, nil)
		if code != http.StatusSeeOther || !strings.HasPrefix(loc, "/admin/login?next=") {
			t.Errorf("GET %s signed out = %d → %q", path, code, loc)
		}
	}
}

func TestWrongPassword(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	for _, tc := range []struct{ user, pw string }{{"admin", "wrong password"}, {"nobody", testPassword}, {"admin", ""}} {
		p.clock.add(time.Minute) // past the delay a wrong password imposes (login_limit_test.go)
		code, _, body := p.tryLogin(tc.user, tc.pw)
		if code != http.StatusUnauthorized || !strings.Contains(body, "Wrong user name or password") {
			t.Errorf("sign-in %s/%q = %d", tc.user, tc.pw, code)
		}
	}
	if code, _ := p.get("/admin/"); code != http.StatusSeeOther {
		t.Errorf("after failed sign-ins the dashboard answers %d, want a redirect to sign in", code)
	}
}

func TestSignInWithoutFormToken(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	code, _, _ := p.do("POST", "/admin/login", url.Values{"username": {"admin"}, "password": {testPassword}})
	if code != http.StatusForbidden {
		t.Errorf("sign-in without the form's CSRF token = %d, want 403", code)
	}
}

func TestSessionCookie(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	p := newPanelConfig(t, db, func(c *admin.Config) { c.TrustedProxies, _ = admin.ParseTrustedProxies("127.0.0.1") })
	_, page := p.get("/admin/login")
	tok := csrfRE.FindStringSubmatch(page)[1]
	req, _ := http.NewRequest("POST", p.srv.URL+"/admin/login", strings.NewReader(url.Values{"csrf": {tok}, "username": {"admin"}, "password": {testPassword}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Forwarded-Proto", "https") // behind a trusted TLS proxy
	resp, err := p.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var found bool
	for _, c := range resp.Cookies() {
		if c.Name == "shopbot_session" {
			found = true
			if !c.HttpOnly || !c.Secure || c.SameSite != http.SameSiteLaxMode || len(c.Value) < 40 {
				t.Errorf("session cookie %+v: want HttpOnly, Secure, SameSite=Lax, a long random value", c)
			}
		}
	}
	if !found {
		t.Fatal("no session cookie")
	}
	var n int
	if err := p.db.NewRaw("SELECT COUNT(*) FROM staff_sessions").Scan(context.Background(), &n); err != nil || n != 1 {
		t.Errorf("sessions stored = %d (%v), want 1", n, err)
	}
}

// TestCSRF: a state-changing POST without the session's token, or with
// another one, is refused with 403 and changes nothing.
func TestCSRF(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	f := seed(t, p.db)
	p.signIn()
	ctx := context.Background()
	for _, tc := range []struct {
		path string
		form url.Values
	}{
		{"/admin/settings", url.Values{"shop_name": {"Hacked"}, "currency": {"EUR"}, "max_rounds": {"3"}, "rate_limit": {"5"}, "rate_window": {"60s"}}},
		{"/admin/orders/" + f.order.Number + "/status", url.Values{"status": {"cancelled"}}},
		{"/admin/conversations/" + itoa(f.conv.ID) + "/pause", url.Values{}},
		{"/admin/conversations/" + itoa(f.conv.ID) + "/reply", url.Values{"text": {"hi"}}},
		{"/admin/products/1/archive", url.Values{}},
		{"/admin/staff", url.Values{"username": {"mallory"}, "password": {"0123456789abc"}}},
		{"/admin/logout", url.Values{}},
	} {
		for _, tok := range []string{"", "forged-token"} {
			form := url.Values{}
			for k, v := range tc.form {
				form[k] = v
			}
			form.Set("csrf", tok)
			code, _, _ := p.do("POST", tc.path, form)
			if code != http.StatusForbidden {
				t.Errorf("POST %s with csrf %q = %d, want 403", tc.path, tok, code)
			}
		}
	}
	st, _ := catalog.NewSettingsStore(p.db, catalog.Settings{ShopName: "Test Shop"}).Get(ctx)
	if st.ShopName != "Test Shop" {
		t.Errorf("shop name changed to %q", st.ShopName)
	}
	o, _ := catalog.GetOrder(ctx, p.db, f.order.Number)
	conv, _ := catalog.GetConversation(ctx, p.db, f.conv.ID)
	msgs, _ := catalog.RecentMessages(ctx, p.db, f.conv.ID, 100)
	var staff int
	_ = p.db.NewRaw("SELECT COUNT(*) FROM staff_users").Scan(ctx, &staff)
	if o.Status != catalog.StatusNew || conv.Paused || len(msgs) != 4 || staff != 1 || len(p.notes.all()) != 0 {
		t.Errorf("forged posts changed something: order %s, paused %v, %d messages, %d staff, %d notices", o.Status, conv.Paused, len(msgs), staff, len(p.notes.all()))
	}
	if code, _ := p.get("/admin/"); code != http.StatusOK {
		t.Error("a forged sign-out signed us out")
	}
}

func TestSessionExpiry(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	p.signIn()
	p.clock.add(90 * time.Minute) // used within the idle limit: still signed in
	if code, _ := p.get("/admin/"); code != http.StatusOK {
		t.Fatalf("after 90 min = %d", code)
	}
	p.clock.add(2*time.Hour + time.Minute) // idle too long
	if code, loc, _ := p.do("GET", "/admin/products", nil); code != http.StatusSeeOther || !strings.HasPrefix(loc, "/admin/login") {
		t.Errorf("idle session: GET = %d → %s", code, loc)
	}
	if code, _, _ := p.post("/admin/settings", url.Values{"shop_name": {"X"}}); code != http.StatusForbidden {
		t.Errorf("idle session: POST = %d, want 403", code)
	}

	// The absolute lifetime ends even a busy session.
	p.signIn()
	for i := 0; i < 13; i++ {
		p.clock.add(time.Hour)
		p.get("/admin/")
	}
	if code, _ := p.get("/admin/"); code != http.StatusSeeOther {
		t.Errorf("13 h after sign-in = %d, want a redirect to sign in", code)
	}
}

func TestSignOut(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	p.signIn()
	jar := p.client.Jar
	u, _ := url.Parse(p.srv.URL)
	stolen := jar.Cookies(u) // a copy of the cookie, as if stolen
	if code, loc, _ := p.post("/admin/logout", nil); code != http.StatusSeeOther || loc != "/admin/login" {
		t.Fatalf("sign-out = %d → %s", code, loc)
	}
	other := newClient()
	other.Jar.SetCookies(u, stolen)
	resp, err := other.Get(p.srv.URL + "/admin/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the old session cookie still works after sign-out: %d", resp.StatusCode)
	}
}

func TestEnsureAdmin(t *testing.T) {
	ctx := context.Background()
	db := catalogtest.SQLite(t)
	pw, err := admin.EnsureAdmin(ctx, db, "")
	if err != nil || len(pw) < 16 {
		t.Fatalf("first start: %q, %v", pw, err)
	}
	var hash string
	if err := db.NewRaw("SELECT password_hash FROM staff_users WHERE username = 'admin'").Scan(ctx, &hash); err != nil || strings.Contains(hash, pw) || !strings.HasPrefix(hash, "$2") {
		t.Errorf("stored %q (%v): want a bcrypt hash, not the password", hash, err)
	}
	if again, err := admin.EnsureAdmin(ctx, db, ""); err != nil || again != "" {
		t.Errorf("second start generated %q (%v)", again, err)
	}
	if _, err := admin.EnsureAdmin(ctx, db, "short"); err == nil {
		t.Error("a 5-character ADMIN_PASSWORD was accepted")
	}
	if _, err := admin.EnsureAdmin(ctx, db, "a brand new password"); err != nil {
		t.Fatal(err)
	}
	p := newPanel(t, db) // sets testPassword
	p.signIn()
}

// TestXSS: text from shoppers, the model and products is shown as text.
func TestXSS(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	f := seed(t, p.db)
	ctx := context.Background()
	in := catalog.ProductInput{SKU: "XSS-1", Title: xss, Brand: `"><img src=x onerror=alert(2)>`, Price: 100, Currency: "USD", Stock: 1}
	if err := in.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.UpsertProducts(ctx, p.db, []catalog.ProductInput{in}); err != nil {
		t.Fatal(err)
	}
	p.signIn()
	for _, path := range []string{"/admin/conversations", "/admin/conversations/" + itoa(f.conv.ID), "/admin/products?q=XSS-1", "/admin/orders/" + f.order.Number} {
		_, body := p.get(path)
		if strings.Contains(body, "<script>alert") || strings.Contains(body, "<img src=x") {
			t.Errorf("%s renders shopper or product text as HTML", path)
		}
		if path != "/admin/orders/"+f.order.Number && !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("%s does not show the text escaped", path)
		}
	}
}
