package eval

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/outcome"
	"shopbot/engine/view"
)

// replyShown bounds how much of a reply a failure quotes.
const replyShown = 160

// Check returns the first expectation o does not meet, as "expected …,
// got …", or "" when it meets them all. They are checked in the order
// the scenario format lists them.
func (x *Expect) Check(o *outcome.Outcome) string {
	for _, check := range []func(*outcome.Outcome) string{
		x.checkShows, x.checkNotShows, x.checkFirst, x.checkPrices, x.checkCart, x.checkOrder,
		x.checkReply, x.checkTools, x.checkModelCalls,
	} {
		if msg := check(o); msg != "" {
			return msg
		}
	}
	return ""
}

func listed(o *outcome.Outcome) string {
	if len(o.Products) == 0 {
		return "no products listed"
	}
	return "[" + strings.Join(o.SKUs(), ", ") + "]"
}

func (x *Expect) checkShows(o *outcome.Outcome) string {
	for _, sku := range x.Shows {
		if !slices.Contains(o.SKUs(), sku) {
			return fmt.Sprintf("expected to show %s, got %s", sku, listed(o))
		}
	}
	return ""
}

func (x *Expect) checkNotShows(o *outcome.Outcome) string {
	for _, sku := range x.NotShows {
		if slices.Contains(o.SKUs(), sku) {
			return fmt.Sprintf("expected not to show %s, got %s", sku, listed(o))
		}
	}
	return ""
}

func (x *Expect) checkFirst(o *outcome.Outcome) string {
	if x.First == "" || (len(o.Products) > 0 && o.Products[0].SKU == x.First) {
		return ""
	}
	return fmt.Sprintf("expected %s first, got %s", x.First, listed(o))
}

func (x *Expect) checkPrices(o *outcome.Outcome) string {
	for _, p := range o.Products {
		price := major(p.Price, p.Currency)
		if x.MaxPrice != nil && price.Cmp(x.MaxPrice) > 0 {
			return fmt.Sprintf("expected every product at most %s, got %s at %s", x.MaxPrice.FloatString(2), p.SKU, p.PriceText)
		}
		if x.MinPrice != nil && price.Cmp(x.MinPrice) < 0 {
			return fmt.Sprintf("expected every product at least %s, got %s at %s", x.MinPrice.FloatString(2), p.SKU, p.PriceText)
		}
	}
	return ""
}

// major is a price in minor units as major units of its currency.
func major(minor int64, currency string) *big.Rat {
	digits, ok := catalog.CurrencyDigits(currency)
	if !ok {
		digits = 2
	}
	return new(big.Rat).SetFrac(big.NewInt(minor), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits)), nil))
}

func (x *Expect) checkCart(o *outcome.Outcome) string {
	if x.Cart == nil || maps.Equal(x.Cart, o.Cart) {
		return ""
	}
	return fmt.Sprintf("expected cart %s, got %s", cartText(x.Cart), cartText(o.Cart))
}

// cartText writes a cart as the scenario format does, SKUs sorted.
func cartText(c map[string]int) string {
	if len(c) == 0 {
		return "{} (empty)"
	}
	parts := make([]string, 0, len(c))
	for _, sku := range slices.Sorted(maps.Keys(c)) {
		parts = append(parts, fmt.Sprintf("%s: %d", sku, c[sku]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func (x *Expect) checkOrder(o *outcome.Outcome) string {
	switch {
	case x.OrderPlaced == nil || *x.OrderPlaced == (o.Order != ""):
		return ""
	case *x.OrderPlaced:
		return "expected an order placed, got none"
	}
	return "expected no order placed, got order " + o.Order
}

func (x *Expect) checkReply(o *outcome.Outcome) string {
	reply := strings.ToLower(o.Reply)
	for _, s := range x.ReplyContains {
		if !strings.Contains(reply, strings.ToLower(s)) {
			return fmt.Sprintf("expected the reply to contain %q, got %q", s, view.Shorten(o.Reply, replyShown))
		}
	}
	for _, s := range x.ReplyNotContains {
		if strings.Contains(reply, strings.ToLower(s)) {
			return fmt.Sprintf("expected the reply not to contain %q, got %q", s, view.Shorten(o.Reply, replyShown))
		}
	}
	return ""
}

func (x *Expect) checkTools(o *outcome.Outcome) string {
	names := o.ToolNames()
	for _, t := range x.Tools {
		if !slices.Contains(names, t) {
			got := "no tools called"
			if len(names) > 0 {
				got = "[" + strings.Join(names, ", ") + "]"
			}
			return fmt.Sprintf("expected tool %s called, got %s", t, got)
		}
	}
	return ""
}

func (x *Expect) checkModelCalls(o *outcome.Outcome) string {
	if x.MaxModelCalls == nil || o.ModelCalls <= *x.MaxModelCalls {
		return ""
	}
	return fmt.Sprintf("expected at most %d model calls, got %d", *x.MaxModelCalls, o.ModelCalls)
}
