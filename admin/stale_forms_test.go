package admin_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// staleVariantTable: the variant table saves each row over the version it
// was opened at and its stock as a change. A table opened before orders
// keeps what they took; a stale table is refused with what changed; a
// count typed over a stock that moved is refused; "+15" adds to what is
// there. (sku is unused: the table is TEE-1's.)
func staleVariantTable(t *testing.T, db *bun.DB, ann *panel, _ string) {
	ctx := context.Background()
	bob := ann.colleague()
	if code, _, body := ann.post("/admin/products/new", teeForm(
		[5]string{"TEE-1-S", "S", "Navy", "20.00", "10"},
		[5]string{"TEE-1-M", "M", "Navy", "24.00", "5"},
	)); code != http.StatusSeeOther {
		t.Fatalf("create = %d:\n%s", code, body)
	}
	parent, err := catalog.GetProduct(ctx, db, "TEE-1")
	if err != nil {
		t.Fatal(err)
	}
	page := fmt.Sprintf("/admin/products/%d", parent.ID)
	annOpened, bobOpened := ann.opened(page), bob.opened(page)
	mustBuy(t, db, "TEE-1-S", 3, "tee")

	table := func(title, sStock, mStock, loaded string) map[string][]string {
		f := productForm("TEE-1", "20.00")
		f.Set("title", title)
		f["option_name"] = []string{"Size", "Color", ""}
		addRows(f, [5]string{"=TEE-1-S", "S", "Navy", "20.00", sStock}, [5]string{"=TEE-1-M", "M", "Navy", "24.00", mStock})
		f.Set("loaded", loaded)
		return f
	}
	if code, _, body := ann.post(page, table("Harbor Tee", "10", "+2", annOpened)); code != http.StatusSeeOther {
		t.Fatalf("table save = %d:\n%s", code, body)
	}
	const saved = `TEE-1 stock=14 price=2000..2400 n=2 names=[Size Color]; TEE-1-S map[Color:Navy Size:S] 2000/7 active=true title="Harbor Tee"; TEE-1-M map[Color:Navy Size:M] 2400/7 active=true title="Harbor Tee";`
	if got := family(t, db, "TEE-1"); got != saved {
		t.Fatalf("after a table save opened before 3 orders:\n got %s\nwant %s", got, saved)
	}

	code, _, body := bob.post(page, table("Harbor Rain Shell", "20", "5", bobOpened))
	text := html.UnescapeString(body)
	for _, want := range []string{"changed since you opened it", "title 'Harbor Rain Shell' → 'Harbor Tee'", "TEE-1-S stock '10' → '7'", "TEE-1-M stock '5' → '7'", "TEE-1-S stock '10' → '20'"} {
		if code != http.StatusConflict || !strings.Contains(text, want) {
			t.Errorf("stale table = %d, lacks %q", code, want)
		}
	}
	if got := family(t, db, "TEE-1"); got != saved {
		t.Fatalf("a stale table wrote:\n%s", got)
	}

	// Opened now, then 2 more sold: a count typed over the 7 shown is
	// refused (nothing written), a change is applied to the 5 left.
	fresh := bob.opened(page)
	mustBuy(t, db, "TEE-1-S", 2, "tee-more")
	code, _, body = bob.post(page, table("Harbor Tee", "20", "7", fresh))
	if code != http.StatusConflict || !strings.Contains(html.UnescapeString(body), "TEE-1-S stock '7' → '5'") {
		t.Errorf("count over a moved stock = %d:\n%s", code, body)
	}
	if code, _, body := bob.post(page, table("Harbor Tee", "-6", "+1", fresh)); code != http.StatusBadRequest || !strings.Contains(body, "is 5, so 6 cannot be taken away") {
		t.Errorf("a row below zero = %d", code)
	}
	if got, want := family(t, db, "TEE-1"), strings.Replace(strings.Replace(saved, "2000/7", "2000/5", 1), "stock=14", "stock=12", 1); got != want {
		t.Fatalf("refused tables wrote:\n got %s\nwant %s", got, want)
	}
	if code, _, body := bob.post(page, table("Harbor Tee", "+15", "7", fresh)); code != http.StatusSeeOther {
		t.Fatalf("+15 = %d:\n%s", code, body)
	}
	if s, _ := stockAndTitle(t, db, "TEE-1-S"); s != 20 {
		t.Errorf("TEE-1-S stock %d, want 20 (10 - 5 sold + 15)", s)
	}
	if s, _ := stockAndTitle(t, db, "TEE-1"); s != 27 {
		t.Errorf("TEE-1 rolled up to %d, want 27", s)
	}
}

// staleSettings: the settings form saves only over the version it was
// opened at; a stale one is refused with where it differs, and writes
// nothing; a form without its version is refused.
func staleSettings(t *testing.T, db *bun.DB, ann *panel, _ string) {
	ctx := context.Background()
	bob := ann.colleague()
	annV, bobV := ann.settingsOpened(), bob.settingsOpened()
	f := settingsForm()
	f.Set("version", annV)
	if code, _, body := ann.post("/admin/settings", f); code != http.StatusSeeOther {
		t.Fatalf("save = %d:\n%s", code, body)
	}
	store := catalog.NewSettingsStore(db, catalog.Settings{})
	want, _ := store.Get(ctx)

	stale := settingsForm()
	stale.Set("shop_name", "Bob's Shop")
	stale.Set("version", bobV)
	code, _, body := bob.post("/admin/settings", stale)
	text := html.UnescapeString(body)
	if code != http.StatusConflict || !strings.Contains(text, "changed since you opened them") ||
		!strings.Contains(text, "shop name 'Nordvik Outdoor' → 'Bob's Shop'") || !strings.Contains(text, `name="shop_name" value="Nordvik Outdoor"`) {
		t.Errorf("stale settings = %d:\n%s", code, text)
	}
	stale.Del("version")
	if code, _, body := bob.post("/admin/settings", stale); code != http.StatusBadRequest || !strings.Contains(body, "does not say when it was opened") {
		t.Errorf("settings without a version = %d", code)
	}
	if got, _ := store.Get(ctx); got != want {
		t.Fatalf("refused settings forms wrote: %+v, want %+v", got, want)
	}
	stale.Set("version", bob.settingsOpened())
	if code, _, body := bob.post("/admin/settings", stale); code != http.StatusSeeOther {
		t.Fatalf("reopened save = %d:\n%s", code, body)
	}
	if got, _ := store.Get(ctx); got.ShopName != "Bob's Shop" || got.Version != want.Version+1 {
		t.Errorf("after the reopened save: %+v", got)
	}
}

// archivedMeanwhile: a page opened before the product was archived is
// refused; the refusal says so, and does not count the status among the
// merchant's unsaved edits (the form does not change it).
func archivedMeanwhile(t *testing.T, db *bun.DB, p *panel, sku string) {
	page := stalePlain(t, db, sku)
	opened := p.opened(page)
	if code, _, _ := p.post(page+"/archive", nil); code != http.StatusSeeOther {
		t.Fatalf("archive = %d", code)
	}
	code, _, body := p.post(page, bottleForm("Changed", "100", opened))
	text := html.UnescapeString(body)
	changed, unsaved, _ := strings.Cut(text, `id="unsaved"`)
	unsaved, _, _ = strings.Cut(unsaved, "</ul>")
	if code != http.StatusConflict || !strings.Contains(changed, "status 'active' → 'archived'") ||
		strings.Contains(unsaved, "status") || !strings.Contains(unsaved, "title 'Trail Bottle' → 'Changed'") {
		t.Errorf("save after archiving = %d:\n%s", code, text)
	}
	if _, title := stockAndTitle(t, db, sku); title != "Trail Bottle" {
		t.Errorf("title %q after a refused save", title)
	}
}
