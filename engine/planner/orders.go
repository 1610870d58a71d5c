package planner

// Planner turns about orders and habits, a person, and small talk.
import (
	"context"
	"errors"
	"shopbot/engine/toolkit"
	"strings"

	"shopbot/catalog/clip"
	"shopbot/catalog/search/analysis"
	"shopbot/engine/planner/intent"
	"shopbot/engine/view"
)

// orderView is an order in get_order_status' data.
type orderView struct {
	Number   string `json:"number"`
	Status   string `json:"status"`
	Total    string `json:"total"`
	Date     string `json:"date"`
	Tracking string `json:"tracking"`
	Lines    []struct {
		Title string `json:"title"`
		Qty   int    `json:"qty"`
	} `json:"lines"`
}

func (t *plannerTurn) orders(ctx context.Context, in intent.Intent) error {
	args := map[string]string{}
	if in.Order != "" {
		args["order_number"] = in.Order
	}
	res, err := t.call(ctx, "get_order_status", args)
	var te *toolkit.ToolError
	if errors.As(err, &te) && in.Order != "" {
		t.say(rNoSuchOrder, nil)
		return nil
	}
	if err != nil {
		return t.fail(err)
	}
	d := dataAs[struct {
		Order  *orderView  `json:"order"`
		Orders []orderView `json:"orders"`
	}](res)
	switch {
	case d.Order != nil:
		t.say(rOrder, d.Order)
	case len(d.Orders) > 0:
		t.say(rOrders, d.Orders)
		t.moreButton()
	default:
		t.say(rNoOrders, nil)
		t.button("btn.cats", view.Action{Kind: view.ActCategories})
	}
	return nil
}

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
	res, err := t.call(ctx, "request_human", map[string]string{"reason": "Shopper asked for a person: " + reason})
	if err != nil {
		return t.fail(err)
	}
	if d, ok := res.Data.(map[string]string); ok && d["team_back_at"] != "" {
		t.sayText(d["message"]) // outside business hours: when the team is back
		return nil
	}
	t.say(rHuman, nil)
	return nil
}
