package tools

import (
	"context"
	"encoding/json"
	"errors"
	"shopbot/engine/toolkit"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

type notifyWhenAvailableArgs struct {
	SKU string `json:"sku"`
}

// notifyWhenAvailableTool subscribes the shopper to a back-in-stock alert
// on an out-of-stock product: one message in this chat when stock
// returns (catalog/restock.go, engine/restock), for 60 days. The chat
// comes from the session, never from the arguments.
func notifyWhenAvailableTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "notify_when_available",
		Description: "Message the shopper in this chat when an out-of-stock product is back.",
		Schema:      object(map[string]any{"sku": sku()}, "sku"),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a notifyWhenAvailableArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			p, err := sellableProduct(ctx, d, strings.TrimSpace(a.SKU))
			if err != nil {
				return toolkit.Result{}, err
			}
			if s.Customer == nil {
				return toolkit.Result{}, errors.New("engine: notify_when_available: session has no customer")
			}
			req := catalog.StockAlertRequest{
				CustomerID: s.Customer.ID, SKU: p.SKU, Locale: s.Lang(), Now: s.Now,
				Where: catalog.ConversationKey{Channel: s.Channel, ChatID: s.ChatID, ThreadID: s.ThreadID},
			}
			if req.Now.IsZero() {
				req.Now = d.now()
			}
			key := s.Effects().EffectKey("stock_alert", p.SKU)
			_, err = d.apply(ctx, s, key, func(ctx context.Context, w toolkit.Writes) (*view.Notice, error) {
				return nil, w.SubscribeStockAlert(ctx, req)
			})
			card := view.CardOf(p)
			if errors.Is(err, catalog.ErrInStock) {
				return toolkit.Result{
					Data:    map[string]any{"sku": p.SKU, "title": p.Title, "status": "in_stock", "message": "It is in stock now; offer to add it to the cart."},
					Cards:   []view.Card{card},
					Buttons: []view.Button{view.NewButton(toolkit.Label(s, toolkit.BtnAddToCart), view.Action{Kind: view.ActAdd, SKU: p.SKU, Qty: 1})},
				}, nil
			}
			if err != nil {
				return toolkit.Result{}, err
			}
			return toolkit.Result{Data: map[string]any{
				"sku": p.SKU, "title": p.Title, "status": "subscribed",
				"message": "The shopper will get one message in this chat when it is back in stock (the alert lasts 60 days).",
			}}, nil
		},
	}
}
