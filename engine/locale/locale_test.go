package locale

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Every language has every key of the fallback and no other, and each
// translation reads no data and no fmt verb the English does not: a
// template that reads a field the code never gives fails here, not in
// front of a shopper. (A translation may leave a detail out: the Russian
// invalid_field omits the reason, which the checkout writes in English.)
func TestEveryKeyInEveryLanguage(t *testing.T) {
	en := Keys(Fallback)
	if len(en) < 100 {
		t.Fatalf("en has %d keys", len(en))
	}
	for _, lang := range Languages() {
		keys := Keys(lang)
		for _, k := range en {
			if !slices.Contains(keys, k) {
				t.Errorf("%s: key %s missing", lang, k)
			}
		}
		for _, k := range keys {
			if !slices.Contains(en, k) {
				t.Errorf("%s: key %s is not in %s.yaml", lang, k, Fallback)
				continue
			}
			want := uses(catalogue[Fallback].words[k])
			for _, u := range uses(catalogue[lang].words[k]) {
				if !slices.Contains(want, u) {
					t.Errorf("%s: %s uses %s, English does not", lang, k, u)
				}
			}
		}
	}
}

var (
	actionRE = regexp.MustCompile(`{{.*?}}`)
	fieldRE  = regexp.MustCompile(`\.[A-Z]\w*|\$\w*`)
	verbRE   = regexp.MustCompile(`%[sdvq]`)
)

// uses lists the fields and fmt verbs a text reads, sorted.
func uses(text string) []string {
	var out []string
	for _, a := range actionRE.FindAllString(text, -1) {
		out = append(out, fieldRE.FindAllString(a, -1)...)
	}
	out = append(out, verbRE.FindAllString(actionRE.ReplaceAllString(text, ""), -1)...)
	slices.Sort(out)
	return slices.Compact(out)
}

// Every template of every language renders with data of the shape the
// planner gives it; the data here exercises each branch's fields.
func TestRenderEveryTemplate(t *testing.T) {
	card := map[string]any{"Title": "Tee", "PriceText": "from $5.00", "InStock": false}
	line := map[string]any{"Title": "Tee", "Variant": "M", "Qty": 2, "PriceText": "$10.00", "LineTotal": "$10.00", "Quantity": 2, "Spend": "$10", "InStock": true}
	data := map[string]any{
		"Total": 3, "Cards": []any{card, card}, "Min": "$1", "Max": "$9", "Query": "tee", "Qty": 2, "Title": "Tee", "Units": 2,
		"Option": "size", "Chosen": "red", "Values": []string{"S", "M"}, "Asked": "XL", "Notify": true, "Lines": []any{line},
		"TotalText": "$10", "N": 3, "Pos": 4, "Brand": "B", "InStock": true, "Stock": 4, "RatingCount": 2, "Rating": 4.5, "Summary": "s", "PriceText": "$5.00",
		"Cheapest": "Tee", "BestRated": "Tee", "Differences": []string{"size"}, "NoLongerSold": false, "Status": "paid", "Count": 2,
		"Highlights": []any{map[string]any{"Rating": 5, "Author": "A", "Text": "t"}}, "Parent": "Home",
		"Categories": []any{map[string]any{"Name": "Home", "Products": 3}}, "Number": "SB-1", "Date": "1 May", "Tracking": "T1",
		"Field": "phone", "Reason": "too short", "Changed": true, "Promo": map[string]any{"Code": "X", "Discount": "-$1"},
		"Delivery": "Courier", "Subtotal": "$9", "DeliveryPrice": "$1", "Contact": map[string]any{"Name": "A", "Phone": "1", "Address": "x"},
		"Empty": false, "Items": []any{line}, "DaysAhead": 7, "NextDue": map[string]any{"Title": "Tee", "Due": "soon"}, "Budget": "$5",
		"OverBudget": []any{line}, "PeriodDays": 30, "Orders": 2, "Spend": "$10", "Missing": []string{"red"},
		"When": "on Monday at 09:00", "Zone": "Europe/Berlin", "Time": "09:00", "Day": "on Monday",
	}
	for _, lang := range Languages() {
		for _, k := range Keys(lang) {
			var d any = data
			switch k {
			case "planner.items", "planner.similar", "planner.popular", "planner.more":
				d = []any{card}
			case "planner.orders", "planner.more_orders":
				d = []any{data}
			case "planner.no_match", "tools.no_results":
				d = map[string]any{"Query": "tee", "Missing": []string{"red"}, "Categories": []string{"Home"}}
			case "planner.ask":
				d = "phone"
			case "planner.not_in_cart", "planner.tool_error", "planner.too_many":
				d = "x"
			case "planner.address_ask", "planner.address_changed", "planner.cannot_change_address", "planner.items_ask",
				"planner.items_changed", "planner.items_unchanged", "planner.cannot_change_items", "planner.return_ask",
				"planner.return_requested", "planner.return_not_delivered", "planner.return_window_closed",
				"planner.return_status", "planner.no_returns":
				d = aftersaleData // the after-sale tools' replies (planner/aftersale_changes.go)
			}
			out, err := Text(lang, k, d)
			if err != nil {
				t.Errorf("%s/%s: %v", lang, k, err)
				continue
			}
			if strings.Contains(out, "<no value>") {
				t.Errorf("%s/%s reads a field the data lacks: %q", lang, k, out)
			}
		}
	}
}

// aftersaleData is the shape of an after-sale tool's reply as the planner
// renders it.
var aftersaleData = map[string]any{
	"Order":      map[string]any{"Number": "SB-1", "Status": "new", "Total": "$9", "Address": "1 Main St", "Lines": []any{map[string]any{"Title": "Tee", "Qty": 2}}},
	"NewAddress": "5 Elm Rd", "NewTotal": "$12", "NewLines": []any{map[string]any{"Title": "Tee", "Qty": 3, "Was": 2}},
	"ReturnBy": "2026-12-01", "Returns": []any{map[string]any{"Kind": "exchange", "Status": "approved", "Date": "2026-11-20", "Note": "ok"}},
	"Kind": "exchange", "Reason": "too small",
}

func TestLang(t *testing.T) {
	for in, want := range map[string]string{"": "en", "ru": "ru", "ru-RU": "ru", "RU_ru": "ru", "de": "en", "en-GB": "en"} {
		if got := Lang(in); got != want {
			t.Errorf("Lang(%q) = %q, want %q", in, got, want)
		}
	}
	if Word("ru", "button.add") == Word("en", "button.add") || Word("de", "button.add") != "Add" || Word("en", "no.such.key") != "no.such.key" {
		t.Error("Word does not fall back as documented")
	}
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{1: "товар", 2: "товара", 5: "товаров", 11: "товаров", 21: "товар", 22: "товара", 112: "товаров"} {
		if got := Plural(n, "товар", "товара", "товаров"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
	if Plural(1, "item", "items") != "item" || Plural(0, "item", "items") != "items" {
		t.Error("English plural")
	}
}
