package quote

import (
	"strings"
	"testing"

	"shopbot/engine/tools"
)

var returns = []tools.ShopPassage{
	{Slug: "returns", Page: "Returns", Text: "Unused tools can be returned within 30 days of delivery. Mixed paint cannot be returned."},
	{Slug: "returns", Page: "Returns", Heading: "How to return", Text: "Post the item to our yard. Refunds reach your card within 5 working days."},
	{Slug: "returns", Page: "Returns", Heading: "Возврат", Text: "Инструменты можно вернуть в течение 30 дней после доставки."},
}

func TestInLanguage(t *testing.T) {
	if got := InLanguage(returns, true); len(got) != 1 || got[0].Heading != "Возврат" {
		t.Errorf("Russian: %+v", got)
	}
	if got := InLanguage(returns, false); len(got) != 2 {
		t.Errorf("English: %+v", got)
	}
	only := returns[2:]
	if got := InLanguage(only, false); len(got) != 1 { // none in English: what there is
		t.Errorf("fallback: %+v", got)
	}
}

func TestAnsweringQuotesTheSentences(t *testing.T) {
	for _, tc := range []struct{ asked, want, not string }{
		{"can mixed paint be returned", "Mixed paint cannot be returned.", "Post the item"},
		{"when will my refund reach my card", "Refunds reach your card within 5 working days.", "Mixed paint"},
	} {
		_, got := Answering(InLanguage(returns, false), tc.asked, tc.asked)
		text := strings.Join(got, " ")
		if !strings.Contains(text, tc.want) || strings.Contains(text, tc.not) {
			t.Errorf("%q: quoted %q; want %q without %q", tc.asked, text, tc.want, tc.not)
		}
		if len(got) > MaxQuoted {
			t.Errorf("%q: %d sentences quoted", tc.asked, len(got))
		}
	}
}

func TestSentences(t *testing.T) {
	got := Sentences("One. Two? Three!\nFour 2.5 L")
	if len(got) != 4 || got[3] != "Four 2.5 L" {
		t.Errorf("%q", got)
	}
}

func TestMostlyCyrillic(t *testing.T) {
	if !MostlyCyrillic("Доставка стоит $3") || MostlyCyrillic("Delivery costs $3") {
		t.Error("wrong script")
	}
}
