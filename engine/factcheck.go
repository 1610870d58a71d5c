package engine

import (
	"context"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/factcheck"
	"shopbot/engine/session"
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// checkFacts compares the prices and SKUs in a model's answer with what
// the tools returned this turn (and the products already on screen). For
// anything unverified it counts a metric, logs, and returns a note to
// append to the answer: the correct figures from the catalog, or, for a
// price when no product is listed to correct it from, that the price could
// not be checked and is not to be relied on. (The answer has already
// streamed, so a made-up price is corrected after it, not cut out.)
func (e *Engine) checkFacts(ctx context.Context, s *session.Session, answer string, results []toolkit.Result) string {
	prices, skus := factcheck.Mentions(answer)
	if len(prices) == 0 && len(skus) == 0 {
		return "" // nothing to check: no query on the hot path
	}
	knownPrices, knownSKUs, cards := factcheck.Known(results)
	// Amounts the shopper named ("under 150") are theirs to repeat.
	for _, amount := range factcheck.Amounts(s.Text) {
		knownPrices[amount] = true
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
			fix = append(fix, factcheck.Line(view.CardOf(p)))
			knownSKUs[sku], knownPrices[p.Price] = true, true
		}
	}
	var unknown []string
	for _, m := range prices {
		if amount, ok := factcheck.Minor(m); ok && !knownPrices[amount] {
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
			fix = append(fix, factcheck.Line(c))
		}
	}
	return factcheck.Note(engineMessage(s.Locale, msgFactsNote), engineMessage(s.Locale, msgPriceUnverified), fix, unknown, len(cards) > 0)
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
