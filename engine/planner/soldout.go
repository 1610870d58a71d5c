package planner

// Sold out, said as such: when nothing in stock matches, the same search
// runs once more over the whole catalog, and products that have every
// word of the query but no stock are named as sold out (with a "notify
// me" button), not reported as "found nothing".
import (
	"context"

	"shopbot/engine/view"
)

// soldOut searches args again with the products out of stock included and
// answers with the sold-out ones that match every word of q; it reports
// whether it answered.
func (t *plannerTurn) soldOut(ctx context.Context, args plannedSearch, q string) (bool, error) {
	if q == "" || args.Offset > 0 {
		return false, nil
	}
	found, calls := len(t.plan.Results), len(t.plan.Calls)
	all := false
	args.Query, args.InStock, args.Limit = q, &all, listLimit
	res, err := t.call(ctx, "search_products", args)
	if err != nil {
		return false, t.fail(err)
	}
	kept, exact := bestCovered(res.Cards, q)
	var out []view.Card
	for _, c := range kept {
		if !c.InStock {
			out = append(out, c)
		}
	}
	if !exact || len(out) == 0 {
		// Nothing to say: the probe is neither shown nor kept in the
		// transcript (the dashboard would count the shopper's one search
		// twice; panel.SearchCounts reads the stored calls).
		t.plan.Results, t.plan.Calls = t.plan.Results[:found], t.plan.Calls[:calls]
		return false, nil
	}
	t.keepShown(out)
	t.s.State.Focus = out[0].SKU
	t.say(rSoldOut, listView{Cards: out, Query: q})
	t.button("btn.notify", view.Action{Kind: view.ActNotify, SKU: out[0].SKU})
	t.button("btn.similar", view.Action{Kind: view.ActSimilar, SKU: out[0].SKU})
	return true, nil
}
