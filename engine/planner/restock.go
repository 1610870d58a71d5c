package planner

import (
	"context"

	"shopbot/engine/planner/intent"
	"shopbot/engine/view"
)

// notifyBack subscribes the shopper to a back-in-stock alert on the
// product referred to or named (the first out-of-stock match of the
// name), through the notify_when_available tool.
func (t *plannerTurn) notifyBack(ctx context.Context, in intent.Intent) error {
	sku := ""
	if in.Query != "" {
		res, q, err := t.find(ctx, plannedSearch{Query: in.Query, Limit: listLimit})
		if err != nil {
			return t.fail(err)
		}
		for _, c := range res.Cards {
			if !c.InStock {
				sku = c.SKU
				break
			}
		}
		if sku == "" && len(res.Cards) > 0 {
			sku = res.Cards[0].SKU // in stock: the tool says so and offers it
		}
		if sku == "" {
			t.say(rNothing, listView{Query: q})
			return nil
		}
	} else {
		var ok bool
		if sku, ok = t.resolve(firstRef(in)); !ok {
			return nil
		}
	}
	res, err := t.call(ctx, "notify_when_available", map[string]string{"sku": sku})
	if err != nil {
		return t.fail(err)
	}
	d := dataAs[struct {
		Title  string `json:"title"`
		Status string `json:"status"`
	}](res)
	t.s.State.Focus = sku
	ru := t.lang == "ru"
	switch {
	case d.Status == "in_stock" && ru:
		t.sayText(d.Title + " уже в наличии.")
	case d.Status == "in_stock":
		t.sayText(d.Title + " is in stock now.")
	case ru:
		t.sayText("Напишу сюда, когда " + d.Title + " снова появится в наличии.")
	default:
		t.sayText("I will message you here when " + d.Title + " is back in stock.")
	}
	if d.Status == "in_stock" {
		t.button("btn.add1", view.Action{Kind: view.ActAdd, SKU: sku, Qty: 1})
	}
	return nil
}
