package admin_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// confirmDeletes is the browser test's confirmation step: the panel's CSP
// blocks inline script, so deleting a page used to go through on one
// click. Now Cancel on the dialog keeps the page and OK deletes it; the
// delivery method's Delete asks too (its Save does not).
func confirmDeletes(t *testing.T, ctx context.Context, dlg *dialogs, db *bun.DB, base string, run func(string, ...chromedp.Action)) {
	t.Helper()
	bg := context.Background()
	for _, slug := range []string{"e2e-keep", "e2e-drop"} {
		if _, err := catalog.UpsertPage(bg, db, catalog.PageInput{Slug: slug, Title: "E2E " + slug, Body: "Body of " + slug}); err != nil {
			t.Fatal(err)
		}
	}
	deleteButton := func(slug string) string {
		return `form[action="/admin/pages/` + slug + `/delete"] button`
	}
	run("open the pages", chromedp.Navigate(base+"/admin/pages"), chromedp.WaitVisible(deleteButton("e2e-keep"), chromedp.ByQuery))
	shot(t, ctx, "confirm-pages")

	dlg.expect(false)
	run("delete a page, then cancel", chromedp.Click(deleteButton("e2e-keep"), chromedp.ByQuery))
	dlg.wait(t, "E2E e2e-keep")

	dlg.expect(true)
	run("delete another page and confirm",
		chromedp.Click(deleteButton("e2e-drop"), chromedp.ByQuery),
		chromedp.WaitVisible(`//p[@class="flash" and contains(., "Page e2e-drop deleted")]`),
	)
	dlg.wait(t, "E2E e2e-drop")
	shot(t, ctx, "confirm-deleted")
	if _, err := catalog.GetPage(bg, db, "e2e-drop"); !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("the confirmed page is still there: %v", err)
	}
	if _, err := catalog.GetPage(bg, db, "e2e-keep"); err != nil {
		t.Errorf("the page whose deletion was cancelled is gone: %v", err)
	}
	var rows int
	run("count the rows", chromedp.Evaluate(`document.querySelectorAll('form[action="/admin/pages/e2e-keep/delete"]').length`, &rows))
	if rows != 1 {
		t.Errorf("the kept page is listed %d times, want once", rows)
	}

	// The delivery method's Delete asks; Cancel keeps it.
	methods, err := catalog.ListDeliveryMethods(bg, db)
	if err != nil || len(methods) == 0 {
		t.Fatalf("delivery methods: %v", err)
	}
	m := methods[len(methods)-1]
	dlg.expect(false)
	run("delete a delivery method, then cancel",
		chromedp.Navigate(base+"/admin/settings/delivery"),
		chromedp.WaitVisible(`tr.delivery-method button.danger`, chromedp.ByQuery),
		chromedp.Click(`//tr[contains(@class, "delivery-method")][.//input[@value="`+m.Name+`"]]//button[text()="Delete"]`),
	)
	dlg.wait(t, m.Name)
	shot(t, ctx, "delivery")
	run("save the method without a question",
		chromedp.Click(`//tr[contains(@class, "delivery-method")][.//input[@value="`+m.Name+`"]]//button[text()="Save"]`),
		chromedp.WaitVisible(`//p[@class="flash" and contains(., "Saved `+m.Name+`")]`),
	)
	if _, err := catalog.GetDeliveryMethod(bg, db, m.ID); err != nil {
		t.Errorf("the delivery method whose deletion was cancelled is gone: %v", err)
	}
}

// shot saves a screenshot to SHOPBOT_SCREENSHOTS (when set) as
// admin-NAME.png, for a person to look at.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("SHOPBOT_SCREENSHOTS")
	if dir == "" {
		return
	}
	var b []byte
	if err := chromedp.Run(ctx, chromedp.FullScreenshot(&b, 100)); err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(dir+"/admin-"+name+".png", b, 0o644); err != nil {
		t.Error(err)
	}
}
