package ucp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// apply makes the session's cart hold the request's lines, then checks
// out with its buyer and address: the status is ready_for_complete once
// the engine's checkout shows a summary, else incomplete with messages
// saying what is missing.
func (h *handler) apply(ctx context.Context, ss *session, req *checkoutRequest) (*outcome, error) {
	out := &outcome{}
	cv, err := h.cart(ctx, ss)
	if err != nil {
		return nil, err
	}
	have := map[string]int{}
	for _, l := range cv.Lines {
		have[l.SKU] = l.Qty
	}
	want := map[string]bool{}
	for i, li := range req.LineItems {
		want[li.Item.ID] = true
		var rep toolReply
		switch q, ok := have[li.Item.ID]; {
		case !ok:
			rep, err = h.call(ctx, ss, "add_to_cart", map[string]any{"sku": li.Item.ID, "quantity": li.Quantity})
		case q != li.Quantity:
			rep, err = h.call(ctx, ss, "update_cart_item", map[string]any{"sku": li.Item.ID, "quantity": li.Quantity})
		default:
			continue
		}
		if err != nil {
			return nil, err
		}
		if rep.IsError || rep.Cart == nil {
			out.messages = append(out.messages, toolMessage(rep.Content, fmt.Sprintf("$.line_items[%d]", i)))
		}
	}
	for sku := range have {
		if !want[sku] {
			if _, err := h.call(ctx, ss, "update_cart_item", map[string]any{"sku": sku, "quantity": 0}); err != nil {
				return nil, err
			}
		}
	}
	ss.Lines = req.LineItems
	if req.Buyer != nil {
		ss.Buyer = req.Buyer
	}
	if a := req.address(); a != nil {
		ss.Address = a
	}
	ss.Status = "incomplete"
	if len(out.messages) == 0 {
		msgs, err := h.checkout(ctx, ss, req.selectedOption())
		if err != nil {
			return nil, err
		}
		out.messages = msgs
	}
	if out.cart, err = h.cart(ctx, ss); err != nil {
		return nil, err
	}
	return out, nil
}

// checkout runs create_checkout with the session's buyer and address;
// ready when it shows a summary. The delivery is the option selected (by
// id, among those the summary offers), else the one chosen before, else
// the first the shop offers (fulfillment.go).
func (h *handler) checkout(ctx context.Context, ss *session, selected string) ([]message, error) {
	var msgs []message
	if ss.Buyer == nil || ss.Buyer.Email == "" && ss.Buyer.PhoneNumber == "" {
		msgs = append(msgs, message{Type: "error", Code: "missing", Path: "$.buyer.email", Severity: "recoverable", Content: "the buyer's e-mail (or phone number) is required"})
	}
	if ss.Address == nil {
		msgs = append(msgs, message{Type: "error", Code: "missing", Path: "$.fulfillment.methods[0].destinations[0]", Severity: "recoverable", Content: "the shipping address is required"})
	}
	if len(msgs) > 0 {
		return msgs, nil
	}
	a := ss.Address
	args := map[string]any{
		"name":  strings.TrimSpace(ss.Buyer.FirstName + " " + ss.Buyer.LastName),
		"email": ss.Buyer.Email, "phone": ss.Buyer.PhoneNumber,
		"address": map[string]any{"line1": a.StreetAddress, "line2": a.ExtendedAddress, "city": a.AddressLocality,
			"region": a.AddressRegion, "postal_code": a.PostalCode, "country": a.AddressCountry},
	}
	if ss.Delivery != "" {
		args["delivery"] = ss.Delivery
	}
	for range 3 {
		rep, err := h.call(ctx, ss, "create_checkout", args)
		if err != nil {
			return nil, err
		}
		var res summary
		if rep.IsError || json.Unmarshal([]byte(rep.Content), &res) != nil {
			return []message{toolMessage(rep.Content, "")}, nil
		}
		switch res.Status {
		case "confirm":
			ss.keep(&res)
			if selected == "" || ss.chosen() != nil && ss.chosen().ID == selected {
				ss.Status = "ready_for_complete"
				return nil, nil
			}
			name := ""
			for _, o := range ss.Options {
				if o.ID == selected {
					name = o.Title
				}
			}
			if name == "" {
				return []message{{Type: "error", Code: "invalid", Path: optionPath, Severity: "recoverable",
					Content: "unknown fulfillment option " + clipID(selected) + ": choose one of the group's options"}}, nil
			}
			args["delivery"] = name
			continue
		case "choose_delivery":
			if len(res.Delivery) > 0 {
				args["delivery"] = res.Delivery[0].Name
				continue
			}
		case "need_details":
			for _, f := range res.Missing {
				msgs = append(msgs, message{Type: "error", Code: "missing", Path: contactPath(f), Severity: "recoverable", Content: f + " is required"})
			}
			for f, why := range res.Invalid {
				msgs = append(msgs, message{Type: "error", Code: "invalid", Path: contactPath(f), Severity: "recoverable", Content: f + " " + why})
			}
			return msgs, nil
		case "no_delivery":
			ss.Options, ss.Delivery, ss.Total = nil, "", nil
			return []message{{Type: "error", Code: "address_undeliverable", Path: "$.fulfillment.methods[0].destinations[0]", Severity: "recoverable", Content: "the shop does not deliver to this address"}}, nil
		}
		break
	}
	return []message{{Type: "error", Code: "invalid", Severity: "recoverable", Content: "the checkout could not be prepared"}}, nil
}

// clipID bounds an id quoted back in a message.
func clipID(id string) string {
	if len(id) > maxID {
		id = id[:maxID]
	}
	return strconv.Quote(id)
}

// contactPath is where a contact field the engine names sits in the
// request.
func contactPath(field string) string {
	switch {
	case field == "name":
		return "$.buyer.first_name"
	case field == "email" || field == "email or phone":
		return "$.buyer.email"
	case field == "phone":
		return "$.buyer.phone_number"
	}
	return "$.fulfillment.methods[0].destinations[0]"
}
