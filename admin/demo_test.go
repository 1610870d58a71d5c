package admin_test

import (
	"bytes"
	"context"
	"image/png"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
)

// TestDemoBanner: a shop with the demo shows the banner on every page; its
// confirmation page says what goes; the removal is a POST with the CSRF
// token, deletes the demo, hides the banner, and the second time changes
// nothing.
func TestDemoBanner(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		if _, err := demo.Seed(ctx, db); err != nil {
			t.Fatal(err)
		}
		p := newPanel(t, db)
		p.signIn()
		const banner = "This is the demo shop"
		for _, path := range []string{"/admin/", "/admin/products"} {
			if _, body := p.get(path); !strings.Contains(body, banner) || !strings.Contains(body, `href="/admin/demo/remove"`) {
				t.Errorf("%s without the demo banner", path)
			}
		}
		code, body := p.get("/admin/demo/remove")
		if code != http.StatusOK || !strings.Contains(body, "including demo listings you have edited") ||
			!strings.Contains(body, `action="/admin/demo/remove"`) || strings.Contains(body, "<script>") {
			t.Fatalf("confirmation page = %d:\n%.3000s", code, body)
		}

		code, _, _ = p.do("POST", "/admin/demo/remove", url.Values{"csrf": {"forged"}})
		if n, _ := catalog.CountProducts(ctx, db); code != http.StatusForbidden || n < 300 {
			t.Fatalf("removal with a forged CSRF token = %d, %d products left", code, n)
		}

		code, loc, _ := p.post("/admin/demo/remove", nil)
		if code != http.StatusSeeOther || loc != "/admin/" {
			t.Fatalf("removal = %d → %q", code, loc)
		}
		_, body = p.get("/admin/")
		if !strings.Contains(body, "Removed the demo shop") || strings.Contains(body, banner) {
			t.Errorf("after removal, the dashboard:\n%.3000s", body)
		}
		if n, _ := catalog.CountProducts(ctx, db); n != 0 {
			t.Errorf("%d products after removal", n)
		}
		if _, body := p.get("/admin/demo/remove"); !strings.Contains(body, "There is no demo data") {
			t.Errorf("confirmation page after removal:\n%.2000s", body)
		}
		p.post("/admin/demo/remove", nil)
		if _, body := p.get("/admin/"); !strings.Contains(body, "Nothing to remove") {
			t.Errorf("second removal did not say so:\n%.2000s", body)
		}
	})
}

// TestDemoImages: every demo listing has an image, and its URL serves a
// valid PNG tile.
func TestDemoImages(t *testing.T) {
	db := catalogtest.SQLite(t)
	ctx := context.Background()
	if _, err := demo.Seed(ctx, db); err != nil {
		t.Fatal(err)
	}
	p := newPanel(t, db)
	var ps []catalog.Product
	if err := db.NewSelect().Model(&ps).Scan(ctx); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, pr := range ps {
		if len(pr.ImageURLs) == 0 || !strings.HasPrefix(pr.ImageURLs[0], "/media/") {
			t.Errorf("%s has no image: %v", pr.SKU, pr.ImageURLs)
			continue
		}
		u := pr.ImageURLs[0]
		if seen[u] {
			continue
		}
		seen[u] = true
		resp, err := p.client.Get(p.srv.URL + u)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/png" {
			t.Errorf("GET %s = %d %s", u, resp.StatusCode, resp.Header.Get("Content-Type"))
			continue
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil || img.Bounds().Dx() < 200 || img.Bounds().Dx() != img.Bounds().Dy() {
			t.Errorf("GET %s: not a square PNG tile: %v", u, err)
		}
	}
	if len(seen) < 300 {
		t.Errorf("%d distinct images, want one per listing", len(seen))
	}
	for _, name := range []string{"demo-NOSUCH.png", "demo-APP-JKT-001.jpg", "other.png"} {
		if code, _ := p.get("/media/" + name); code != http.StatusNotFound {
			t.Errorf("GET /media/%s = %d, want 404", name, code)
		}
	}
}
