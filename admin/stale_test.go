package admin_test

import (
	"context"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/importer"
)

// TestStaleForms: product, variant and settings forms saved from stale
// pages never write old values or old stock back, through the panel's handlers, on SQLite and
// Postgres (one panel per database, one product per case).
func TestStaleForms(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		ann := newPanel(t, db)
		ann.signIn()
		for i, tc := range []struct {
			name string
			run  func(*testing.T, *bun.DB, *panel, string)
		}{
			{"two staff, twenty orders", twoStaffTwentyOrders},
			{"title save after orders", titleSaveAfterOrders},
			{"import makes the form stale", importMakesFormStale},
			{"stock entry refusals", stockEntryRefusals},
			{"stale forms race checkout", staleFormsRaceCheckout},
			{"variant table", staleVariantTable},
			{"settings", staleSettings},
			{"archived meanwhile", archivedMeanwhile},
		} {
			t.Run(tc.name, func(t *testing.T) { tc.run(t, db, ann, fmt.Sprintf("STALE-%d", i)) })
		}
	})
}

// buy places one order of n units of sku through the real checkout, for a
// customer of its own (key makes it unique).
func buy(ctx context.Context, db bun.IDB, sku string, n int, key string) (*catalog.Order, error) {
	c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: "web", PlatformUserID: key, DisplayName: "Buyer " + key})
	if err != nil {
		return nil, err
	}
	if _, err := catalog.AddToCart(ctx, db, catalog.PersonalCart(c.ID), sku, n, c.ID); err != nil {
		return nil, err
	}
	return catalog.PlaceOrder(ctx, db, catalog.OrderRequest{
		IdempotencyKey: "stale:" + key, Scope: catalog.PersonalCart(c.ID), CustomerID: c.ID, Channel: "web", ChatID: key,
		Contact: catalog.Contact{Name: "Buyer", Phone: "+1 555 0100", Address: "1 Main St"},
	})
}

func mustBuy(t *testing.T, db bun.IDB, sku string, orders int, key string) {
	t.Helper()
	for i := range orders {
		if _, err := buy(context.Background(), db, sku, 1, fmt.Sprintf("%s-%d", key, i)); err != nil {
			t.Fatal(err)
		}
	}
}

// colleague is a second member of staff signed in to the same panel.
func (p *panel) colleague() *panel {
	q := *p
	q.client = newClient()
	q.signIn()
	return &q
}

// stalePlain stores sku (title "Trail Bottle", stock 100) and returns its
// page.
func stalePlain(t *testing.T, db bun.IDB, sku string) string {
	t.Helper()
	ctx := context.Background()
	in := catalog.ProductInput{SKU: sku, Title: "Trail Bottle", Brand: "Nordvik", Price: 1500, Currency: "USD", Stock: 100,
		CategoryPath: []string{"Outdoor"}, Description: "Keeps water cold."}
	if err := in.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{in}); err != nil {
		t.Fatal(err)
	}
	prod, err := catalog.GetProduct(ctx, db, sku)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("/admin/products/%d", prod.ID)
}

// bottleForm is a stalePlain product's form as opened at loaded, with title and stock.
func bottleForm(title, stock, loaded string) url.Values {
	return url.Values{"title": {title}, "brand": {"Nordvik"}, "category": {"Outdoor"}, "price": {"15.00"}, "currency": {"USD"},
		"stock": {stock}, "description": {"Keeps water cold."}, "loaded": {loaded}}
}

func stockAndTitle(t *testing.T, db bun.IDB, sku string) (int, string) {
	t.Helper()
	p, err := catalog.GetProduct(context.Background(), db, sku)
	if err != nil {
		t.Fatal(err)
	}
	return p.Stock, p.Title
}

// twoStaffTwentyOrders is issue 23's scenario: two members of staff
// open a product at stock 100; 20 orders come in; one saves a title
// change, the other a stock of 110 (10 received). The title is saved and
// the 80 kept; the stale page is refused with what changed and nothing of
// it is written; reopened, its "+10" makes 90, the real count.
func twoStaffTwentyOrders(t *testing.T, db *bun.DB, ann *panel, sku string) {
	bob := ann.colleague()
	page := stalePlain(t, db, sku)
	annOpened, bobOpened := ann.opened(page), bob.opened(page)

	mustBuy(t, db, sku, 20, "twenty")

	if code, _, body := ann.post(page, bottleForm("Trail Bottle 1L", "100", annOpened)); code != http.StatusSeeOther {
		t.Fatalf("title save = %d:\n%s", code, body)
	}
	if stock, title := stockAndTitle(t, db, sku); stock != 80 || title != "Trail Bottle 1L" {
		t.Fatalf("after the title save: stock %d title %q, want 80 and the new title", stock, title)
	}

	// Bob's page is stale: neither his count nor a change is written.
	for _, stock := range []string{"110", "+10"} {
		code, _, body := bob.post(page, bottleForm("Trail Bottle", stock, bobOpened))
		text := html.UnescapeString(body)
		if code != http.StatusConflict || !strings.Contains(text, "changed since you opened it") ||
			!strings.Contains(text, "title 'Trail Bottle' → 'Trail Bottle 1L'") || !strings.Contains(text, "stock '100' → '80'") ||
			!strings.Contains(text, `name="stock" value="80"`) {
			t.Fatalf("stale save with stock %s = %d:\n%s", stock, code, text)
		}
		if !strings.Contains(text, "stock '100' → '"+stock+"'") {
			t.Errorf("the refusal does not list the unsaved stock %s", stock)
		}
		if got, title := stockAndTitle(t, db, sku); got != 80 || title != "Trail Bottle 1L" {
			t.Fatalf("a stale save wrote: stock %d title %q", got, title)
		}
	}

	// Reopened, "+10" is added to the stock as it is.
	if code, _, body := bob.post(page, bottleForm("Trail Bottle 1L", "+10", bob.opened(page))); code != http.StatusSeeOther {
		t.Fatalf("+10 = %d:\n%s", code, body)
	}
	if stock, title := stockAndTitle(t, db, sku); stock != 90 || title != "Trail Bottle 1L" {
		t.Errorf("final: stock %d title %q; want 90 (100 - 20 sold + 10 received) and the new title", stock, title)
	}
}

// titleSaveAfterOrders: a title-only save from a page opened before
// 10 orders keeps the 90 left and saves the title.
func titleSaveAfterOrders(t *testing.T, db *bun.DB, ann *panel, sku string) {
	p := ann
	page := stalePlain(t, db, sku)
	opened := p.opened(page)
	mustBuy(t, db, sku, 10, "ten")
	if code, _, body := p.post(page, bottleForm("Summit Bottle", "100", opened)); code != http.StatusSeeOther {
		t.Fatalf("save = %d:\n%s", code, body)
	}
	if stock, title := stockAndTitle(t, db, sku); stock != 90 || title != "Summit Bottle" {
		t.Errorf("stock %d title %q, want 90 and Summit Bottle", stock, title)
	}
}

// stockEntryRefusals: each bad stock entry or form is refused with a
// clear sentence and writes nothing, not even the title beside it.
func stockEntryRefusals(t *testing.T, db *bun.DB, ann *panel, sku string) {
	p := ann
	page := stalePlain(t, db, sku)
	opened := p.opened(page)
	for name, tc := range map[string]struct {
		form url.Values
		code int
		want string
	}{
		"not a number":        {bottleForm("Changed", "ten", opened), http.StatusBadRequest, `stock "ten": write a count such as 12, or a change such as +10 or -2`},
		"unicode minus":       {bottleForm("Changed", "−2", opened), http.StatusBadRequest, "write a count such as 12"},
		"huge":                {bottleForm("Changed", "99999999999", opened), http.StatusBadRequest, "write a count such as 12"},
		"below zero":          {bottleForm("Changed", "-101", opened), http.StatusBadRequest, "stock of " + sku + " is 100, so 101 cannot be taken away"},
		"no snapshot":         {bottleForm("Changed", "+1", ""), http.StatusBadRequest, "This form does not say when it was opened"},
		"forged snapshot":     {bottleForm("Changed", "+1", `{"version":0}`), http.StatusBadRequest, "This form does not say when it was opened"},
		"snapshot of another": {bottleForm("Changed", "+1", `{"version":99,"stock":100}`), http.StatusConflict, "changed since you opened it"},
	} {
		code, _, body := p.post(page, tc.form)
		if text := html.UnescapeString(body); code != tc.code || !strings.Contains(text, tc.want) {
			t.Errorf("%s: %d, want %d with %q", name, code, tc.code, tc.want)
		}
		if stock, title := stockAndTitle(t, db, sku); stock != 100 || title != "Trail Bottle" {
			t.Fatalf("%s wrote: stock %d title %q", name, stock, title)
		}
	}
	// The bad form comes back with what was typed and the snapshot it
	// was opened with, so fixing it saves.
	code, _, body := p.post(page, bottleForm("Changed", "-101", opened))
	if code != http.StatusBadRequest || !strings.Contains(body, `name="stock" value="-101"`) || html.UnescapeString(loadedRE.FindStringSubmatch(body)[1]) != opened {
		t.Fatalf("bad form shown again without its values: %d", code)
	}
	if code, _, body := p.post(page, bottleForm("Changed", "-100", opened)); code != http.StatusSeeOther {
		t.Fatalf("-100 = %d:\n%s", code, body)
	}
	if stock, title := stockAndTitle(t, db, sku); stock != 0 || title != "Changed" {
		t.Errorf("after -100: stock %d title %q", stock, title)
	}
}

// importMakesFormStale: a product page opened before an import (the real
// importer) rewrote the product is refused, and the import's values stay.
func importMakesFormStale(t *testing.T, db *bun.DB, p *panel, sku string) {
	page := stalePlain(t, db, sku)
	opened := p.opened(page)
	csv := "sku,title,price,currency,stock,category\n" + sku + ",Imported Bottle,15.00,USD,100,Outdoor\n"
	sum, err := importer.Import(context.Background(), db, strings.NewReader(csv), "import.csv", importer.Options{})
	if err != nil || sum.Updated != 1 {
		t.Fatalf("import: %+v, %v", sum, err)
	}
	code, _, body := p.post(page, bottleForm("Changed", "100", opened))
	if code != http.StatusConflict || !strings.Contains(html.UnescapeString(body), "title 'Trail Bottle' → 'Imported Bottle'") {
		t.Fatalf("save after an import = %d:\n%s", code, body)
	}
	if _, title := stockAndTitle(t, db, sku); title != "Imported Bottle" {
		t.Errorf("title %q after a refused save", title)
	}
}

// postRaw posts a form from a goroutine (no t.Fatal there).
func postRaw(p *panel, path string, form url.Values) (int, error) {
	form.Set("csrf", p.csrf)
	resp, err := p.client.PostForm(p.srv.URL+path, form)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, err
}

// staleFormsRaceCheckout: shoppers check out while two members of
// staff save pages opened at the same moment (one "+5", one a count 10
// above what it showed), through the panel's handlers. Exactly one save
// is written, and the stock is always the stock opened minus what sold
// plus what the saved form added: no sold unit comes back.
func staleFormsRaceCheckout(t *testing.T, db *bun.DB, ann *panel, sku string) {
	rounds := 10
	if testing.Short() {
		rounds = 3
	}
	bob := ann.colleague()
	page := stalePlain(t, db, sku)
	ctx := context.Background()
	resurrected := 0
	for round := range rounds {
		before, _ := stockAndTitle(t, db, sku)
		annForm := bottleForm(fmt.Sprintf("Ann %d", round), "+5", ann.opened(page))
		bobForm := bottleForm(fmt.Sprintf("Bob %d", round), fmt.Sprint(before+10), bob.opened(page))
		const buyers = 4
		var wg sync.WaitGroup
		errs := make([]error, buyers)
		codes := make([]int, 2)
		saveErrs := make([]error, 2)
		for i := range buyers {
			wg.Go(func() { _, errs[i] = buy(ctx, db, sku, 1, fmt.Sprintf("race-%d-%d", round, i)) })
		}
		wg.Go(func() { codes[0], saveErrs[0] = postRaw(ann, page, annForm) })
		wg.Go(func() { codes[1], saveErrs[1] = postRaw(bob, page, bobForm) })
		wg.Wait()
		for _, err := range append(errs, saveErrs...) {
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		want, wins := before-buyers, 0
		for k, add := range []int{5, 10} {
			switch codes[k] {
			case http.StatusSeeOther:
				want, wins = want+add, wins+1
			case http.StatusConflict:
			default:
				t.Fatalf("round %d: save %d = %d", round, k, codes[k])
			}
		}
		stock, _ := stockAndTitle(t, db, sku)
		resurrected += stock - want
		if wins != 1 || stock != want {
			t.Errorf("round %d: %d saves won (codes %v), stock %d, want %d", round, wins, codes, stock, want)
		}
	}
	t.Logf("%d rounds through the panel, %d units resurrected", rounds, resurrected)
}
