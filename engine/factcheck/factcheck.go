package factcheck

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// Mentions are the prices and the SKU-shaped tokens text states.
func Mentions(text string) (prices, skus []string) {
	return priceRE.FindAllString(text, -1), skuRE.FindAllString(text, -1)
}

// Amounts are the amounts text names (the shopper's "under 150"), in
// minor units.
func Amounts(text string) []int64 {
	var out []int64
	for _, n := range digitsRE.FindAllString(text, -1) {
		if amount, ok := Minor(n); ok {
			out = append(out, amount)
		}
	}
	return out
}

var (
	// priceRE finds money in model text: "$89.99", "89.99 USD", "1290 ₽".
	priceRE = regexp.MustCompile(`[$€£]\s?\d[\d,]*(?:\.\d{1,2})?|\d[\d,]*(?:\.\d{1,2})?\s?(?:USD|EUR|GBP|RUB|₽|руб)`)
	// skuRE finds SKU-shaped tokens such as SHO-RUN-001.
	skuRE    = regexp.MustCompile(`\b[A-Z]{2,5}(?:-[A-Z0-9]{2,8}){1,3}\b`)
	digitsRE = regexp.MustCompile(`\d[\d,]*(?:\.\d{1,2})?`)
)

// Note is what the engine appends to an answer: the catalog's figures
// (fix, under the heading factsNote), and when no product was listed to
// correct a price from, a warning naming the prices that could not be
// checked (priceUnverified, a format with one %s). "" when there is
// nothing to say.
func Note(factsNote, priceUnverified string, fix, unknownPrices []string, listed bool) string {
	var notes []string
	if len(fix) > 0 {
		notes = append(notes, factsNote+"\n"+strings.Join(dedupe(fix), "\n"))
	}
	if len(unknownPrices) > 0 && !listed {
		notes = append(notes, fmt.Sprintf(priceUnverified, strings.Join(dedupe(unknownPrices), ", ")))
	}
	if len(notes) == 0 {
		return ""
	}
	return "\n\n" + strings.Join(notes, "\n\n")
}

// Line is a product as a note lists it: title, SKU and price.
func Line(c view.Card) string { return "• " + c.Title + " (" + c.SKU + ") — " + c.PriceText }

// Known collects the prices and SKUs a turn's tool results contain, and
// the products they list.
func Known(results []toolkit.Result) (map[int64]bool, map[string]bool, []view.Card) {
	prices, skus := map[int64]bool{}, map[string]bool{}
	var cards []view.Card
	for _, r := range results {
		for _, c := range r.Cards {
			prices[c.Price], skus[c.SKU] = true, true
			cards = append(cards, c)
		}
		if r.Cart != nil {
			prices[r.Cart.Total], prices[r.Cart.Subtotal], prices[r.Cart.Discount] = true, true, true
			for _, l := range r.Cart.Lines {
				prices[l.UnitPrice], prices[l.LineTotal], skus[l.SKU] = true, true, true
			}
		}
		if r.Order != nil {
			prices[r.Order.Total], prices[r.Order.Total+r.Order.Discount], prices[r.Order.Discount] = true, true, true
			for _, l := range r.Order.Lines {
				prices[l.UnitPrice], prices[l.UnitPrice*int64(l.Qty)], skus[l.SKU] = true, true, true
			}
		}
	}
	return prices, skus, cards
}

// Minor reads an amount in minor units (two decimals) from a mention;
// false when it names none.
func Minor(mention string) (int64, bool) {
	num := strings.ReplaceAll(digitsRE.FindString(mention), ",", "")
	if num == "" {
		return 0, false
	}
	whole, frac, _ := strings.Cut(num, ".")
	frac = (frac + "00")[:2]
	n, err := strconv.ParseInt(whole+frac, 10, 64)
	return n, err == nil
}

func dedupe(lines []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range lines {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}
