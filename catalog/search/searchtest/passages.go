package searchtest

import (
	"context"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

// OpenPassages builds the passage backend under test over db, which holds
// PassagePages, and keeps it current with db the way production does
// until the test ends.
type OpenPassages func(t *testing.T, db *bun.DB) search.PassageSearcher

// PassagePages are the shop pages the passage suite searches.
var PassagePages = []catalog.PageInput{
	{Slug: "returns", Title: "Returns and refunds", Body: "You may return any unused item within 30 days of delivery for a full refund.\n\n" +
		"## How to send it back\n\nPack the item in its original box and print the prepaid label from your order page.\n\n" +
		"## Exceptions\n\nUnderwear, opened cosmetics and gift cards cannot be returned."},
	{Slug: "shipping", Title: "Shipping", Body: "Orders leave our warehouse within one business day.\n\n" +
		"## Countries\n\nWe ship to the United States, Canada, the United Kingdom and Germany. We do not ship to other countries yet.\n\n" +
		"## Costs\n\nStandard shipping costs $5 and is free on orders over $50. Express shipping costs $15."},
	{Slug: "payment", Title: "Payment", Body: "We accept Visa, Mastercard and PayPal. Your card is charged when the order ships."},
	{Slug: "contact", Title: "Contact us", Body: "Write to help@example.com or call us by phone at +1 555 0100, Monday to Friday, 9 to 17."},
}

// RunPassages runs the passage conformance suite on db, a fresh migrated
// database.
func RunPassages(t *testing.T, db *bun.DB, open OpenPassages) {
	ctx := context.Background()
	for _, p := range PassagePages {
		if _, err := catalog.UpsertPage(ctx, db, p); err != nil {
			t.Fatal(err)
		}
	}
	ids := seedReviews(t, db)
	s := open(t, db)
	t.Run("Relevance", func(t *testing.T) { testPassageRelevance(t, s) })
	t.Run("NoMatch", func(t *testing.T) { testPassageNoMatch(t, s) })
	t.Run("Reviews", func(t *testing.T) { testReviews(t, db, s, ids) })
	t.Run("Updates", func(t *testing.T) { testPassageUpdates(t, db, s) }) // last: it changes the pages
}

func testPassageRelevance(t *testing.T, s search.PassageSearcher) {
	for _, tc := range []struct {
		query, ref, contains string
	}{
		{"what is your return policy?", "returns", "30 days"},
		{"do you ship to Canada?", "shipping", "Canada"},
		{"how much does shipping cost", "shipping", "$5"},
		{"can I pay with PayPal", "payment", "PayPal"},
		{"phone number", "contact", "555"},
		{"how do I send an item back", "returns", "prepaid label"},
		{"как вернуть товар", "returns", ""},       // Russian word, English page: synonyms
		{"сколько стоит доставка", "shipping", ""}, // likewise
		{"returns", "returns", ""},
	} {
		ps := mustPassages(t, s, search.PassageQuery{Kind: catalog.PassagePage, Text: tc.query})
		if len(ps) == 0 {
			t.Errorf("%q: no passages", tc.query)
			continue
		}
		top := ps[0]
		if top.Ref != tc.ref || !strings.Contains(top.Text, tc.contains) {
			t.Errorf("%q: top passage %s/%d %q, want page %s containing %q", tc.query, top.Ref, top.Seq, top.Text, tc.ref, tc.contains)
		}
		if top.Kind != catalog.PassagePage || top.Title == "" || top.Score <= 0 || top.Score > 1.0001 {
			t.Errorf("%q: top passage %+v", tc.query, top)
		}
		for i := 1; i < len(ps); i++ {
			if ps[i].Score > ps[i-1].Score {
				t.Errorf("%q: not ordered by score: %v then %v", tc.query, ps[i-1].Score, ps[i].Score)
			}
		}
	}
	ps := mustPassages(t, s, search.PassageQuery{Kind: catalog.PassagePage, Text: "ship shipping countries costs order", Limit: 2})
	if len(ps) != 2 {
		t.Errorf("limit 2: %d passages", len(ps))
	}
	for _, p := range mustPassages(t, s, search.PassageQuery{Kind: catalog.PassagePage, Text: "shipping countries"}) {
		if p.Ref == "shipping" && p.Seq == 1 && p.Heading != "Countries" {
			t.Errorf("passage under Countries has heading %q", p.Heading)
		}
	}
}

func testPassageNoMatch(t *testing.T, s search.PassageSearcher) {
	for _, q := range []search.PassageQuery{
		{Kind: catalog.PassagePage, Text: "zqxv blorft"},
		{Kind: catalog.PassagePage, Text: ""},
		{Kind: catalog.PassagePage, Text: "  ?!  "},
		{Kind: "review", Text: "return policy"}, // another kind: no review says it
		{Kind: catalog.PassagePage, Text: "return policy", Scope: "SKU-1"},
	} {
		if ps := mustPassages(t, s, q); len(ps) != 0 {
			t.Errorf("%+v: %d passages, want none (first %+v)", q, len(ps), ps[0])
		}
	}
	for _, text := range append([]string{strings.Repeat("shipping ", 2000)}, OddTexts...) {
		ps := mustPassages(t, s, search.PassageQuery{Kind: catalog.PassagePage, Text: text, Limit: 1000})
		if len(ps) > search.MaxPassageLimit {
			t.Errorf("%.40q: %d passages, more than the limit", text, len(ps))
		}
	}
}

func testPassageUpdates(t *testing.T, db *bun.DB, s search.PassageSearcher) {
	ctx := context.Background()
	find := func(text, ref string) bool {
		ps, err := s.SearchPassages(ctx, search.PassageQuery{Kind: catalog.PassagePage, Text: text})
		return err == nil && len(ps) > 0 && ps[0].Ref == ref
	}
	gift := catalog.PageInput{Slug: "gift-cards", Title: "Gift cards", Body: "Gift cards never expire and can be used on any product."}
	if _, err := catalog.UpsertPage(ctx, db, gift); err != nil {
		t.Fatal(err)
	}
	Eventually(t, "a new page searchable", func() bool { return find("do gift cards expire", "gift-cards") })

	gift.Body = "Gift vouchers are valid for two years."
	if _, err := catalog.UpsertPage(ctx, db, gift); err != nil {
		t.Fatal(err)
	}
	Eventually(t, "an edited page searchable by its new text", func() bool { return find("vouchers valid", "gift-cards") })
	Eventually(t, "an edited page's old text gone", func() bool { return !find("never expire", "gift-cards") })

	if err := catalog.DeletePage(ctx, db, "payment"); err != nil {
		t.Fatal(err)
	}
	Eventually(t, "a deleted page gone", func() bool {
		ps, err := s.SearchPassages(ctx, search.PassageQuery{Kind: catalog.PassagePage, Text: "PayPal Visa Mastercard"})
		return err == nil && len(ps) == 0
	})
}

func mustPassages(t testing.TB, s search.PassageSearcher, q search.PassageQuery) []search.Passage {
	t.Helper()
	ps, err := s.SearchPassages(context.Background(), q)
	if err != nil {
		t.Fatalf("passages %.60q: %v", q.Text, err)
	}
	if len(ps) > q.PassageLimit() {
		t.Fatalf("%.60q: %d passages, limit %d", q.Text, len(ps), q.PassageLimit())
	}
	return ps
}
