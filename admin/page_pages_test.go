package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func pageForm(slug, title, body string) url.Values {
	return url.Values{"slug": {slug}, "title": {title}, "body": {body}}
}

// TestPagesCreateEditDelete: the list shows the demo pages; a page is
// created, edited (re-chunked, the index told) and deleted; bad input is
// reported and writes nothing.
func TestPagesCreateEditDelete(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	p.signIn()
	ctx := context.Background()
	if code, body := p.get("/admin/pages"); code != http.StatusOK || !strings.Contains(body, "Shipping and delivery") || !strings.Contains(body, `href="/admin/pages/returns"`) {
		t.Fatalf("list = %d:\n%s", code, body)
	}
	code, loc, body := p.post("/admin/pages/new", pageForm("gift-cards", "Gift cards", "Gift cards never expire.\n\n## Balance\n\nAsk us."))
	if code != http.StatusSeeOther || loc != "/admin/pages/gift-cards" {
		t.Fatalf("create = %d %s:\n%s", code, loc, body)
	}
	if ps, _ := catalog.PassagesOf(ctx, p.db, catalog.PassagePage, "gift-cards"); len(ps) != 2 || ps[1].Heading != "Balance" {
		t.Errorf("passages after create: %+v", ps)
	}
	if code, body := p.get("/admin/pages/gift-cards"); code != http.StatusOK || !strings.Contains(body, "Gift cards never expire.") {
		t.Errorf("edit page = %d", code)
	}

	before, _ := catalog.GetPage(ctx, p.db, "gift-cards")
	code, _, body = p.post("/admin/pages/gift-cards", pageForm("ignored-slug", "Gift cards and vouchers", "Vouchers last two years."))
	if code != http.StatusSeeOther {
		t.Fatalf("save = %d:\n%s", code, body)
	}
	pg, err := catalog.GetPage(ctx, p.db, "gift-cards")
	if err != nil || pg.Title != "Gift cards and vouchers" || pg.Body != "Vouchers last two years." {
		t.Errorf("after save: %+v, %v", pg, err)
	}
	if _, err := catalog.GetPage(ctx, p.db, "ignored-slug"); err == nil {
		t.Error("an edit changed the slug")
	}
	if cs, err := catalog.PassageChanges(ctx, p.db, before.UpdatedAt, 10); err != nil || len(cs) != 1 || cs[0].Ref != "gift-cards" {
		t.Errorf("passage feed after the edit: %+v, %v: the search index would not hear of it", cs, err)
	}

	for name, form := range map[string]url.Values{
		"bad slug":       pageForm("Gift Cards!", "T", "b"),
		"no title":       pageForm("new-one", " ", "b"),
		"duplicate slug": pageForm("returns", "Returns again", "b"),
		"too big":        pageForm("big", "Big", strings.Repeat("x", catalog.MaxPageBody+1)),
	} {
		if code, _, body := p.post("/admin/pages/new", form); code != http.StatusBadRequest || !strings.Contains(body, `class="error"`) {
			t.Errorf("%s: %d", name, code)
		}
	}
	if ret, _ := catalog.GetPage(ctx, p.db, "returns"); ret.Title != "Returns and refunds" {
		t.Errorf("a duplicate form changed the returns page: %q", ret.Title)
	}
	if code, _, _ := p.post("/admin/pages/no-such-page", pageForm("", "T", "b")); code != http.StatusNotFound {
		t.Errorf("saving a missing page = %d", code)
	}

	if code, loc, _ := p.post("/admin/pages/gift-cards/delete", nil); code != http.StatusSeeOther || loc != "/admin/pages" {
		t.Fatalf("delete = %d %s", code, loc)
	}
	if _, err := catalog.GetPage(ctx, p.db, "gift-cards"); err == nil {
		t.Error("the page survived its deletion")
	}
	if ps, _ := catalog.PassagesOf(ctx, p.db, catalog.PassagePage, "gift-cards"); len(ps) != 0 {
		t.Errorf("%d passages survived", len(ps))
	}
	if code, _, _ := p.post("/admin/pages/gift-cards/delete", nil); code != http.StatusNotFound {
		t.Errorf("deleting twice = %d", code)
	}
}

// TestPagesCSRF: every page action without the session's token is refused
// and changes nothing.
func TestPagesCSRF(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	p.signIn()
	ctx := context.Background()
	for _, tc := range []struct {
		path string
		form url.Values
	}{
		{"/admin/pages/new", pageForm("evil", "Evil", "x")},
		{"/admin/pages/returns", pageForm("", "Hijacked", "x")},
		{"/admin/pages/returns/delete", url.Values{}},
	} {
		tc.form.Set("csrf", "forged")
		if code, _, _ := p.post(tc.path, tc.form); code != http.StatusForbidden {
			t.Errorf("%s with a forged token = %d, want 403", tc.path, code)
		}
	}
	if _, err := catalog.GetPage(ctx, p.db, "evil"); err == nil {
		t.Error("a forged form created a page")
	}
	if ret, err := catalog.GetPage(ctx, p.db, "returns"); err != nil || ret.Title != "Returns and refunds" {
		t.Errorf("returns page after forged posts: %+v, %v", ret, err)
	}
}

// TestPagePreviewEscapes: the preview renders Markdown but no script the
// body carries, and saves nothing.
func TestPagePreviewEscapes(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	p.signIn()
	form := pageForm("", "Returns and refunds", "## Heading\n\n**bold** <script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n[click](javascript:alert(3))")
	form.Set("preview", "1")
	code, _, body := p.post("/admin/pages/returns", form)
	if code != http.StatusOK {
		t.Fatalf("preview = %d:\n%s", code, body)
	}
	preview := body[strings.Index(body, "<h2>Preview</h2>"):]
	if !strings.Contains(preview, "<h2>Heading</h2>") || !strings.Contains(preview, "<strong>bold</strong>") {
		t.Errorf("preview does not render Markdown:\n%s", preview)
	}
	for _, bad := range []string{"<script>alert", "onerror=", "javascript:"} {
		if strings.Contains(preview, bad) {
			t.Errorf("preview carries %q:\n%s", bad, preview)
		}
	}
	if ret, _ := catalog.GetPage(context.Background(), p.db, "returns"); strings.Contains(ret.Body, "script") {
		t.Error("the preview saved the page")
	}
}
