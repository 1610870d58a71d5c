package planner

// Planner turns that continue the conversation: the next page of the last
// list (a search, a category, products like one, best sellers, orders;
// session.Listing), and contact details typed outside checkout.
import (
	"context"
	"errors"

	"shopbot/engine/planner/aftersale"
	"shopbot/engine/planner/intent"
	"shopbot/engine/session"
	"shopbot/engine/tools"
	"shopbot/engine/view"
)

// remember keeps the search whose page was just shown, so "show more"
// continues it: Offset is where the next page starts (the search found
// got results from args.Offset on).
func (t *plannerTurn) remember(args plannedSearch, total, got int) {
	t.s.State.Listing = &session.Listing{Kind: tools.SearchKind(args.Query, args.Category), Query: args.Query,
		Category: args.Category, MinPrice: args.MinPrice, MaxPrice: args.MaxPrice, Sort: args.Sort,
		Options: args.Options, Offset: args.Offset + got, Total: total}
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

// moreButton offers the next page of the remembered list when more remain.
func (t *plannerTurn) moreButton() {
	if l := t.s.State.Listing; l.HasMore() {
		t.plan.Buttons = append(t.plan.Buttons, tools.MoreButton(t.lang, l))
	}
}

// More answers a More button: the next page of the list its arg names
// (session.Listing.MoreArg). Only the session's current list continues, from
// where it stands: a button of an older list, or an arg a client made up,
// is answered that the list has changed, and shows nothing of it; pressing
// the same button twice shows the next page, never one already shown.
func (p *Planner) More(ctx context.Context, s *session.Session, arg string) (Plan, error) {
	if s.State == nil {
		s.State = &session.State{}
	}
	t := &plannerTurn{p: p, s: s, lang: s.Lang()}
	if !s.State.Listing.NamedBy(arg) {
		t.say(rStaleList, nil)
		t.shopButtons()
		return t.plan, t.err
	}
	err := t.more(ctx, intent.Intent{})
	return t.plan, errors.Join(err, t.err)
}

// more shows the next page of the last list, past what was shown, so no
// item is listed twice.
func (t *plannerTurn) more(ctx context.Context, _ intent.Intent) error {
	l := t.s.State.Listing
	if l == nil {
		t.say(rNoListing, nil)
		t.shopButtons()
		return nil
	}
	if !l.HasMore() {
		t.noMore(l)
		return nil
	}
	switch l.ListKind() {
	case session.ListSimilar:
		return t.morePage(ctx, l, "get_similar_products", map[string]any{"sku": l.SKU, "offset": l.Offset})
	case session.ListTop:
		args := map[string]any{"limit": listLimit, "offset": l.Offset}
		if l.Category != "" {
			args["category"] = l.Category
		}
		return t.morePage(ctx, l, "get_top_selling_products", args)
	case session.ListOrders:
		return t.moreOrders(ctx, l)
	}
	return t.moreSearch(ctx, l)
}

// noMore says the list l has nothing past what was shown.
func (t *plannerTurn) noMore(l *session.Listing) {
	switch l.ListKind() {
	case session.ListSearch, session.ListCategory:
		t.say(rNoMore, nil)
	default:
		t.say(rListEnd, nil)
	}
	t.button("btn.cats", view.Action{Kind: view.ActCategories})
}

// morePage shows the next page of a list of products a tool remembers
// itself (similar, best sellers).
func (t *plannerTurn) morePage(ctx context.Context, l *session.Listing, name string, args map[string]any) error {
	res, err := t.call(ctx, name, args)
	if err != nil {
		return t.fail(err)
	}
	if len(res.Cards) == 0 {
		t.noMore(l)
		return nil
	}
	t.say(rMore, res.Cards)
	t.cardButtons(res.Cards)
	t.moreButton()
	return nil
}

// moreSearch shows the next page of a search or a category: the same
// query and filters, from the remembered offset.
func (t *plannerTurn) moreSearch(ctx context.Context, l *session.Listing) error {
	args := plannedSearch{Query: l.Query, Category: l.Category, MinPrice: l.MinPrice, MaxPrice: l.MaxPrice,
		Sort: l.Sort, Options: l.Options, Limit: listLimit, Offset: l.Offset}
	res, err := t.call(ctx, "search_products", args)
	if err != nil {
		return t.fail(err)
	}
	total := max(dataAs[struct {
		Total int `json:"total"`
	}](res).Total, args.Offset+len(res.Cards))
	t.remember(args, total, len(res.Cards))
	cards := res.Cards
	if l.Exact {
		cards = exactOnly(cards, l.Query)
		t.keepShown(cards)
		t.s.State.Listing.Exact = true
	}
	if len(cards) == 0 {
		t.noMore(l)
		return nil
	}
	t.say(rMore, cards)
	t.cardButtons(cards)
	t.moreButton()
	return nil
}

// moreOrders shows the next page of the shopper's orders (package
// aftersale).
func (t *plannerTurn) moreOrders(ctx context.Context, l *session.Listing) error {
	none, err := aftersale.MoreOrders(ctx, afterSaleTurn{t}, l.Offset)
	if none {
		t.noMore(l)
	}
	return err
}

// personal answers a phone number, an e-mail or an address typed outside
// checkout: no search (it would be stored and counted as one), just
// where such details are wanted.
func (t *plannerTurn) personal(context.Context, intent.Intent) error {
	t.say(rPersonal, nil)
	t.button("btn.cart", view.Action{Kind: view.ActCart})
	t.button("btn.checkout", view.Action{Kind: view.ActCheckout})
	return nil
}
