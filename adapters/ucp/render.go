package ucp

import (
	"net/http"
	"time"
)

// render is the session as the spec's checkout object (checkout.json):
// its lines and totals from the cart, or from the order once completed.
func (h *handler) render(r *http.Request, ss *session, out *outcome) map[string]any {
	lines, totals, currency := []map[string]any{}, []map[string]any{}, ""
	switch {
	case out.order != nil:
		currency = out.order.Currency
		var sub int64
		for _, l := range out.order.Lines {
			sub += l.UnitPrice * int64(l.Qty)
			lines = append(lines, line(l.SKU, l.Title, l.UnitPrice, l.Qty))
		}
		totals = append(totals, total("subtotal", sub))
		if out.order.Discount > 0 {
			totals = append(totals, total("discount", -out.order.Discount))
		}
		if out.order.DeliveryCents > 0 {
			totals = append(totals, total("fulfillment", out.order.DeliveryCents))
		}
		totals = append(totals, total("total", out.order.Total))
	case out.cart != nil:
		cv := out.cart
		currency = cv.Currency
		var sub int64
		for _, l := range cv.Lines {
			sub += l.LineTotal
			lines = append(lines, line(l.SKU, l.Title, l.UnitPrice, l.Qty))
		}
		totals = append(totals, total("subtotal", sub))
		if cv.Discount > 0 {
			totals = append(totals, total("discount", -cv.Discount))
		}
		if c := ss.chosen(); c != nil && ss.Status == "ready_for_complete" {
			// The chosen delivery, before complete: the total the order
			// will have.
			totals = append(totals, total("fulfillment", c.Amount), total("total", cv.Total+c.Amount))
		} else {
			totals = append(totals, total("total", cv.Total))
		}
	default:
		totals = append(totals, total("subtotal", 0), total("total", 0))
	}
	if currency == "" {
		currency = "USD"
	}
	links := []map[string]any{}
	if h.opts.TermsURL != "" {
		links = append(links, map[string]any{"type": "terms_of_service", "url": h.opts.TermsURL})
	}
	body := map[string]any{
		"ucp": map[string]any{
			"version": Version, "status": "success",
			"capabilities":     map[string]any{"dev.ucp.shopping.checkout": []map[string]any{{"version": Version}}},
			"payment_handlers": map[string]any{},
		},
		"id": ss.ID, "status": ss.Status, "currency": currency,
		"line_items": lines, "totals": totals, "links": links,
		"expires_at": ss.Created.Add(sessionTTL).UTC().Format(time.RFC3339),
	}
	if len(out.messages) > 0 {
		body["messages"] = out.messages
	}
	if ss.Buyer != nil {
		body["buyer"] = ss.Buyer
	}
	if ss.Status != "completed" && ss.Status != "canceled" {
		ids := make([]string, len(lines))
		for i, l := range lines {
			ids[i] = l["id"].(string)
		}
		if f := ss.fulfillment(ids); f != nil {
			body["fulfillment"] = f
		}
	}
	if ss.PayURL != "" && ss.Status == "completed" {
		body["continue_url"] = ss.PayURL
	}
	if ss.OrderNo != "" {
		body["order"] = map[string]any{"id": ss.OrderNo, "label": ss.OrderNo,
			"permalink_url": h.base(r) + "/ucp/v1/checkout-sessions/" + ss.ID}
	}
	return body
}

// sessionTTL is the spec's default lifetime of a checkout session.
const sessionTTL = 6 * time.Hour

func line(sku, title string, unit int64, qty int) map[string]any {
	return map[string]any{
		"id": "li_" + sku, "item": map[string]any{"id": sku, "title": title, "price": unit}, "quantity": qty,
		"totals": []map[string]any{total("subtotal", unit*int64(qty)), total("total", unit*int64(qty))},
	}
}

func total(kind string, amount int64) map[string]any {
	return map[string]any{"type": kind, "amount": amount}
}
