package planner

// Planner turns about habits, a person, and small talk (orders are
// package aftersale's).
import (
	"context"
	"strings"

	"shopbot/catalog/clip"
	"shopbot/catalog/search/analysis"
	"shopbot/engine/planner/intent"
	"shopbot/engine/view"
)

// ---- habits ----

func (t *plannerTurn) shoppingList(ctx context.Context, in intent.Intent) error {
	args := map[string]any{}
	if in.Days > 0 {
		args["days_ahead"] = min(in.Days, 90)
	}
	if in.Budget > 0 {
		args["budget"] = in.Budget
	}
	res, err := t.call(ctx, "generate_shopping_list", args)
	if err != nil {
		return t.fail(err)
	}
	t.say(rList, dataAs[shoppingListView](res))
	t.button("btn.cart", view.Action{Kind: view.ActCart})
	return nil
}

// shoppingListView is generate_shopping_list's data as the template reads it.
type shoppingListView struct {
	Empty     bool   `json:"empty"`
	DaysAhead int    `json:"days_ahead"`
	Total     string `json:"total"`
	Budget    string `json:"budget"`
	Items     []struct {
		Title     string `json:"title"`
		Qty       int    `json:"qty"`
		LineTotal string `json:"line_total"`
		InStock   bool   `json:"in_stock"`
	} `json:"items"`
	OverBudget []struct {
		Title string `json:"title"`
	} `json:"over_budget"`
	NextDue *struct {
		Title string `json:"title"`
		Due   string `json:"due"`
	} `json:"next_due"`
}

func (t *plannerTurn) stats(ctx context.Context, in intent.Intent) error {
	args := map[string]any{}
	if in.Days > 0 {
		args["period_days"] = min(in.Days, 730)
	}
	res, err := t.call(ctx, "get_purchase_statistics", args)
	if err != nil {
		return t.fail(err)
	}
	t.say(rStats, dataAs[struct {
		Empty      bool   `json:"empty"`
		PeriodDays int    `json:"period_days"`
		Orders     int    `json:"orders"`
		Units      int    `json:"units"`
		Spend      string `json:"spend"`
		Items      []struct {
			Title    string `json:"title"`
			Quantity int    `json:"quantity"`
			Spend    string `json:"spend"`
		} `json:"items"`
	}](res))
	return nil
}

// ---- small talk ----

func (t *plannerTurn) help(_ context.Context, in intent.Intent) error {
	if in.Topic == "own_data" {
		t.say(rOwnData, nil)
	} else {
		t.say(rHelp, nil)
	}
	t.shopButtons()
	return nil
}

func (t *plannerTurn) greeting(context.Context, intent.Intent) error {
	t.say(rGreeting, nil)
	t.shopButtons()
	return nil
}

func (t *plannerTurn) thanks(context.Context, intent.Intent) error {
	t.say(rThanks, nil)
	return nil
}

func (t *plannerTurn) refuse(context.Context, intent.Intent) error {
	t.say(rShopData, nil)
	t.button("btn.cats", view.Action{Kind: view.ActCategories})
	return nil
}

func (t *plannerTurn) human(ctx context.Context, in intent.Intent) error {
	reason := strings.TrimSpace(clip.Runes(analysis.CleanText(in.Value), 400))
	if len([]rune(reason)) < 3 {
		reason = "the shopper asked for a person"
	}
	if _, err := t.call(ctx, "request_human", map[string]string{"reason": "Shopper asked for a person: " + reason}); err != nil {
		return t.fail(err)
	}
	t.say(rHuman, nil)
	return nil
}
