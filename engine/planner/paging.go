package planner

// Planner turns that continue the conversation: the next page of the last
// search, and contact details typed outside checkout.
import (
	"context"

	"shopbot/engine/planner/intent"
	"shopbot/engine/tools"
	"shopbot/engine/view"
)

// remember keeps the search whose page was just shown, so "show more"
// continues it: Offset is where the next page starts (the search found
// got results from args.Offset on).
func (t *plannerTurn) remember(args plannedSearch, total, got int) {
	t.s.State.Listing = &tools.Listing{Query: args.Query, Category: args.Category, MinPrice: args.MinPrice,
		MaxPrice: args.MaxPrice, Sort: args.Sort, Offset: args.Offset + got, Total: total}
}

// keepShown replaces the cards of the turn's last result (and what the
// shopper is remembered to have seen) with those the planner shows.
func (t *plannerTurn) keepShown(cards []view.Card) {
	if n := len(t.plan.Results); n > 0 {
		t.plan.Results[n-1].Cards = cards
	}
	listing := t.s.State.Listing
	t.s.State.Remember(cards)
	t.s.State.Listing = listing
}

// more shows the next page of the last search: the same query and
// filters, past what was shown, so no product is listed twice.
func (t *plannerTurn) more(ctx context.Context, _ intent.Intent) error {
	l := t.s.State.Listing
	if l == nil {
		t.say(rNoListing, nil)
		t.shopButtons()
		return nil
	}
	next := l.Offset
	if next >= l.Total || next > maxOffset {
		t.say(rNoMore, nil)
		t.button("btn.cats", view.Action{Kind: view.ActCategories})
		return nil
	}
	args := plannedSearch{Query: l.Query, Category: l.Category, MinPrice: l.MinPrice, MaxPrice: l.MaxPrice,
		Sort: l.Sort, Limit: listLimit, Offset: next}
	res, err := t.call(ctx, "search_products", args)
	if err != nil {
		return t.fail(err)
	}
	total := max(dataAs[struct {
		Total int `json:"total"`
	}](res).Total, next+len(res.Cards))
	t.remember(args, total, len(res.Cards))
	cards := res.Cards
	if l.Exact {
		cards = exactOnly(cards, l.Query)
		t.keepShown(cards)
		t.s.State.Listing.Exact = true
	}
	if len(cards) == 0 {
		t.say(rNoMore, nil)
		return nil
	}
	t.say(rMore, cards)
	t.cardButtons(cards)
	return nil
}

// maxOffset is search_products' paging limit.
const maxOffset = 100

// personal answers a phone number, an e-mail or an address typed outside
// checkout: no search (it would be stored and counted as one), just
// where such details are wanted.
func (t *plannerTurn) personal(context.Context, intent.Intent) error {
	t.say(rPersonal, nil)
	t.button("btn.cart", view.Action{Kind: view.ActCart})
	t.button("btn.checkout", view.Action{Kind: view.ActCheckout})
	return nil
}
