package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestFormsCleaned: NUL, control characters and invalid UTF-8 in the
// product form, the settings, a transcript reply and the sign-in form are
// cleaned before anything is stored — on Postgres too, which refuses NUL
// — so each post succeeds (or fails for its own reasons), never a 500.
func TestFormsCleaned(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		p := newPanel(t, db)
		f := seed(t, p.db)
		ctx := context.Background()
		if code, _, _ := p.tryLogin("ad\x00min", "x\x00"); code >= 500 {
			t.Errorf("sign-in with NUL = %d", code)
		}
		p.clock.add(time.Minute) // past the delay the wrong password imposed
		p.signIn()

		form := productForm("NUL-1", "10")
		form.Set("title", "Rain\x00 Shell\x07 \xff")
		form.Set("description", "Line one\r\nline\x00 two\ttabbed")
		form.Set("brand", "Nord\x00vik")
		if code, _, body := p.post("/admin/products/new", form); code != http.StatusSeeOther {
			t.Fatalf("create = %d:\n%s", code, body)
		}
		got, err := catalog.GetProduct(ctx, p.db, "NUL-1")
		if err != nil {
			t.Fatal(err)
		}
		if got.Title != "Rain Shell \uFFFD" || got.Description != "Line one\nline two\ttabbed" || got.Brand != "Nordvik" {
			t.Errorf("stored %q %q %q", got.Title, got.Description, got.Brand)
		}

		sf := settingsForm()
		sf.Set("shop_name", "Nord\x00vik Outdoor")
		sf.Set("prompt_extra", "Be\x00 kind.")
		sf.Set("version", p.settingsOpened())
		if code, _, body := p.post("/admin/settings", sf); code != http.StatusSeeOther {
			t.Fatalf("settings = %d:\n%s", code, body)
		}
		o, err := catalog.NewSettingsStore(p.db, catalog.Settings{ShopName: "Default"}).Get(ctx)
		if err != nil || o.ShopName != "Nordvik Outdoor" || o.PromptExtra != "Be kind." {
			t.Errorf("settings %+v, %v", o, err)
		}

		base := "/admin/conversations/" + itoa(f.conv.ID)
		if code, _, body := p.post(base+"/reply", url.Values{"text": {"Hello\x00 there"}}); code != http.StatusSeeOther {
			t.Fatalf("reply = %d:\n%s", code, body)
		}
		msgs, _ := catalog.RecentMessages(ctx, p.db, f.conv.ID, 10)
		if last := msgs[len(msgs)-1]; last.Content != "Hello there" {
			t.Errorf("reply stored as %q", last.Content)
		}
	})
}

// TestAdminDatabaseDown: with the database gone, a panel page is a 503
// with Retry-After, not a 500.
func TestAdminDatabaseDown(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	p.signIn()
	p.db.Close()
	req, _ := http.NewRequest(http.MethodGet, p.srv.URL+"/admin/products", nil)
	resp, err := p.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("%d %v", resp.StatusCode, resp.Header)
	}
}

// FuzzAdminProductForm: whatever bytes the product form's text fields
// hold, saving it is never a 500, on SQLite and Postgres, and no NUL is
// stored.
func FuzzAdminProductForm(f *testing.F) {
	f.Add("Harbor Rain Shell", "Light.", "Nordvik", "color: navy")
	f.Add("Rain\x00 Shell", "a\x00b\r\nc", "\x00", "color: na\x00vy")
	f.Add("\xff\xfe", "\xc3", "B\x1b[31m", "k\xff: v")
	f.Add(" ", "", "", "")
	lite := newPanel(f, catalogtest.SQLiteDemo(f))
	pgdb, _ := catalogtest.PostgresDemo(f)
	pg := newPanel(f, pgdb)
	panels := []*panel{lite, pg}
	for _, p := range panels {
		p.signIn()
	}
	var n atomic.Int64
	f.Fuzz(func(t *testing.T, title, desc, brand, attrs string) {
		sku := "FZ-" + itoa(n.Add(1))
		form := productForm(sku, "10")
		form.Set("title", title)
		form.Set("description", desc)
		form.Set("brand", brand)
		form.Set("attributes", attrs)
		for _, p := range panels {
			p.t = t
			if code, _, body := p.post("/admin/products/new", form); code >= 500 {
				t.Fatalf("%q: %d\n%s", form, code, body)
			}
		}
		var stored int
		err := lite.db.NewRaw(`SELECT count(*) FROM products WHERE instr(title || description || brand || CAST(attributes AS TEXT), char(0)) > 0`).
			Scan(context.Background(), &stored)
		if err != nil || stored != 0 {
			t.Fatalf("NUL stored in %d products (%v) after %q", stored, err, form)
		}
	})
}
