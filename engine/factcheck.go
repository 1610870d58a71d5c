package engine

import (
	"context"
	"fmt"
	"regexp"
	"shopbot/engine/toolkit"
	"strconv"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

var (
	// priceRE finds money in model text: "$89.99", "89.99 USD", "1290 ₽".
	priceRE = regexp.MustCompile(`[$€£]\s?\d[\d,]*(?:\.\d{1,2})?|\d[\d,]*(?:\.\d{1,2})?\s?(?:USD|EUR|GBP|RUB|₽|руб)`)
	// skuRE finds SKU-shaped tokens such as SHO-RUN-001.
	skuRE    = regexp.MustCompile(`\b[A-Z]{2,5}(?:-[A-Z0-9]{2,8}){1,3}\b`)
	digitsRE = regexp.MustCompile(`\d[\d,]*(?:\.\d{1,2})?`)
)

// checkFacts compares the prices and SKUs in a model's answer with what
// the tools returned this turn (and the products already on screen). For
// anything unverified it counts a metric, logs, and returns a note to
// append to the answer: the correct figures from the catalog, or, for a
// price when no product is listed to correct it from, that the price could
// not be checked and is not to be relied on. (The answer has already
// streamed, so a made-up price is corrected after it, not cut out.)
func (e *Engine) checkFacts(ctx context.Context, s *session.Session, answer string, results []toolkit.Result) string {
	prices, skus := priceRE.FindAllString(answer, -1), skuRE.FindAllString(answer, -1)
	if len(prices) == 0 && len(skus) == 0 {
		return "" // nothing to check: no query on the hot path
	}
	knownPrices, knownSKUs, cards := known(results)
	// Amounts the shopper named ("under 150") are theirs to repeat.
	for _, n := range digitsRE.FindAllString(s.Text, -1) {
		if amount, ok := minorOf(n); ok {
			knownPrices[amount] = true
		}
	}
	for _, p := range e.shownProducts(ctx, s) {
		knownSKUs[p.SKU] = true
		knownPrices[p.Price] = true
		cards = append(cards, view.CardOf(&p))
	}
	var fix []string
	for _, sku := range skus {
		if knownSKUs[sku] {
			continue
		}
		e.metrics.unverified.WithLabelValues("sku").Inc()
		e.log.WarnContext(ctx, "model stated an unverified SKU", "sku", sku)
		if p, err := catalog.GetProduct(ctx, e.cfg.DB, sku); err == nil {
			fix = append(fix, line(view.CardOf(p)))
			knownSKUs[sku], knownPrices[p.Price] = true, true
		}
	}
	var unknown []string
	for _, m := range prices {
		if amount, ok := minorOf(m); ok && !knownPrices[amount] {
			unknown = append(unknown, strings.TrimSpace(m))
			e.metrics.unverified.WithLabelValues("price").Inc()
			e.log.WarnContext(ctx, "model stated an unverified price", "price", m)
		}
	}
	if len(unknown) > 0 {
		for i, c := range cards {
			if i == 5 {
				break
			}
			fix = append(fix, line(c))
		}
	}
	return factsNote(s.Locale, fix, unknown, len(cards) > 0)
}

// factsNote is what checkFacts appends: the catalog's figures, and when no
// product was listed to correct a price from, a warning naming the prices
// that could not be checked.
func factsNote(locale string, fix, unknownPrices []string, listed bool) string {
	var notes []string
	if len(fix) > 0 {
		notes = append(notes, engineMessage(locale, msgFactsNote)+"\n"+strings.Join(dedupe(fix), "\n"))
	}
	if len(unknownPrices) > 0 && !listed {
		notes = append(notes, fmt.Sprintf(engineMessage(locale, msgPriceUnverified), strings.Join(dedupe(unknownPrices), ", ")))
	}
	if len(notes) == 0 {
		return ""
	}
	return "\n\n" + strings.Join(notes, "\n\n")
}

func line(c view.Card) string { return "• " + c.Title + " (" + c.SKU + ") — " + c.PriceText }

// known collects the prices and SKUs a turn's tool results contain.
func known(results []toolkit.Result) (map[int64]bool, map[string]bool, []view.Card) {
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

// shownProducts loads the products on screen from earlier turns, which
// the model may legitimately mention again.
func (e *Engine) shownProducts(ctx context.Context, s *session.Session) []catalog.Product {
	skus := append([]string(nil), s.State.Shown...)
	if s.State.Focus != "" {
		skus = append(skus, s.State.Focus)
	}
	ps, err := catalog.GetProducts(ctx, e.cfg.DB, skus)
	if err != nil {
		return nil
	}
	return ps
}

// minorOf reads an amount in minor units (two decimals) from a mention.
func minorOf(mention string) (int64, bool) {
	num := strings.ReplaceAll(digitsRE.FindString(mention), ",", "")
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
