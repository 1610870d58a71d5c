package ucp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"shopbot/engine/view"
)

// The checkout-session operations: each runs under the session's lock,
// calls the engine's agent tools, and answers the session as the spec's
// checkout object.

type lineItem struct {
	ID   string `json:"id,omitempty"`
	Item struct {
		ID string `json:"id"`
	} `json:"item"`
	Quantity int `json:"quantity"`
}

type buyer struct {
	FirstName   string `json:"first_name,omitempty"`
	LastName    string `json:"last_name,omitempty"`
	Email       string `json:"email,omitempty"`
	PhoneNumber string `json:"phone_number,omitempty"`
}

type postalAddress struct {
	StreetAddress   string `json:"street_address,omitempty"`
	ExtendedAddress string `json:"extended_address,omitempty"`
	AddressLocality string `json:"address_locality,omitempty"`
	AddressRegion   string `json:"address_region,omitempty"`
	PostalCode      string `json:"postal_code,omitempty"`
	AddressCountry  string `json:"address_country,omitempty"`
}

// checkoutRequest is a create or update body: the fields the shop acts
// on (others, such as context and signals, are accepted and ignored).
type checkoutRequest struct {
	LineItems   []lineItem `json:"line_items"`
	Buyer       *buyer     `json:"buyer"`
	Fulfillment *struct {
		Methods []struct {
			Destinations []postalAddress `json:"destinations"`
			Groups       []struct {
				SelectedOptionID *string `json:"selected_option_id"`
			} `json:"groups"`
		} `json:"methods"`
	} `json:"fulfillment"`
}

const (
	maxLines = 50
	maxQty   = 99
	maxID    = 64
)

func (req *checkoutRequest) check() error {
	if len(req.LineItems) == 0 || len(req.LineItems) > maxLines {
		return &badRequest{fmt.Sprintf("line_items must hold 1 to %d items", maxLines)}
	}
	seen := map[string]bool{}
	for i, li := range req.LineItems {
		switch {
		case li.Item.ID == "" || len(li.Item.ID) > maxID:
			return &badRequest{fmt.Sprintf("line_items[%d].item.id must be 1 to %d characters", i, maxID)}
		case li.Quantity < 1 || li.Quantity > maxQty:
			return &badRequest{fmt.Sprintf("line_items[%d].quantity must be 1 to %d", i, maxQty)}
		case seen[li.Item.ID]:
			return &badRequest{fmt.Sprintf("line_items[%d]: item %s is listed twice", i, li.Item.ID)}
		}
		seen[li.Item.ID] = true
	}
	return nil
}

func (req *checkoutRequest) address() *postalAddress {
	if req.Fulfillment == nil {
		return nil
	}
	for _, m := range req.Fulfillment.Methods {
		if len(m.Destinations) > 0 {
			return &m.Destinations[0]
		}
	}
	return nil
}

func (h *handler) create(w http.ResponseWriter, r *http.Request) {
	var req checkoutRequest
	if err := decode(r, &req); err != nil {
		h.fail(w, r, err)
		return
	}
	if err := req.check(); err != nil {
		h.fail(w, r, err)
		return
	}
	ctx := r.Context()
	ss, err := h.newSession(ctx)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	// No one knows the new id yet, so no lease is needed.
	out, err := h.apply(ctx, ss, &req)
	h.finish(w, r, ss, out, err, http.StatusCreated)
}

func (h *handler) get(w http.ResponseWriter, r *http.Request) {
	ss, err := h.load(r.Context(), r.PathValue("id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	out := &outcome{order: ss.Order}
	if ss.Status != "completed" {
		if out.cart, err = h.cart(r.Context(), ss); err != nil {
			h.fail(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, h.render(r, ss, out))
}

func (h *handler) update(w http.ResponseWriter, r *http.Request) {
	ss, req, unlock, ok := h.open(w, r)
	if !ok {
		return
	}
	defer unlock()
	if err := req.check(); err != nil {
		h.fail(w, r, err)
		return
	}
	out, err := h.apply(r.Context(), ss, req)
	h.finish(w, r, ss, out, err, http.StatusOK)
}

func (h *handler) complete(w http.ResponseWriter, r *http.Request) {
	ss, _, unlock, ok := h.open(w, r)
	if !ok {
		return
	}
	defer unlock()
	out, err := h.completeLocked(r.Context(), ss)
	h.finish(w, r, ss, out, err, http.StatusOK)
}

func (h *handler) completeLocked(ctx context.Context, ss *session) (*outcome, error) {
	out := &outcome{}
	if ss.Status != "ready_for_complete" {
		cv, err := h.cart(ctx, ss)
		if err != nil {
			return nil, err
		}
		out.cart = cv
		out.messages = append(out.messages, message{Type: "error", Code: "not_ready", Severity: "recoverable",
			Content: "the checkout is incomplete: give the buyer and the shipping address with Update Checkout"})
		return out, nil
	}
	rep, err := h.call(ctx, ss, "complete_checkout", map[string]any{})
	if err != nil {
		return nil, err
	}
	ss.PayURL = paymentURL(rep.Content)
	if rep.Order == nil {
		ss.Status = "incomplete"
		out.messages = append(out.messages, toolMessage(rep.Content, ""))
		if out.cart, err = h.cart(ctx, ss); err != nil {
			return nil, err
		}
		return out, nil
	}
	ss.Status, ss.OrderNo, ss.Order = "completed", rep.Order.Number, rep.Order
	ss.Lines = nil
	out.order = rep.Order
	msg := "the order awaits payment; the merchant contacts the buyer about it"
	if ss.PayURL != "" {
		msg = "the order awaits payment: the buyer pays at continue_url"
	}
	out.messages = append(out.messages, message{Type: "info", Code: "awaiting_payment", Content: msg})
	return out, nil
}

func (h *handler) cancel(w http.ResponseWriter, r *http.Request) {
	ss, _, unlock, ok := h.open(w, r)
	if !ok {
		return
	}
	defer unlock()
	cv, err := h.cart(r.Context(), ss)
	if err == nil {
		ss.Status = "canceled"
	}
	h.finish(w, r, ss, &outcome{cart: cv}, err, http.StatusOK)
}

// finish saves the session an operation changed (even a failed one: its
// write counter moved) and answers its outcome or its error.
func (h *handler) finish(w http.ResponseWriter, r *http.Request, ss *session, out *outcome, opErr error, status int) {
	if err := h.save(r.Context(), ss); err != nil {
		h.fail(w, r, err)
		return
	}
	if opErr != nil {
		h.fail(w, r, opErr)
		return
	}
	writeJSON(w, status, h.render(r, ss, out))
}

// open decodes the body of an update, complete or cancel, takes its
// session's lease and loads it; a session already completed or canceled
// is a conflict (409) and stays unlocked.
func (h *handler) open(w http.ResponseWriter, r *http.Request) (*session, *checkoutRequest, func(), bool) {
	var req checkoutRequest
	if r.ContentLength != 0 && r.Body != http.NoBody {
		if err := decode(r, &req); err != nil {
			h.fail(w, r, err)
			return nil, nil, nil, false
		}
	}
	ctx, id := r.Context(), r.PathValue("id")
	if _, err := h.load(ctx, id); err != nil { // no lease for a session that is not there
		h.fail(w, r, err)
		return nil, nil, nil, false
	}
	unlock, err := h.lock(ctx, id)
	if err != nil {
		h.fail(w, r, err)
		return nil, nil, nil, false
	}
	ss, err := h.load(ctx, id) // as the last holder of the lease left it
	if err != nil {
		unlock()
		h.fail(w, r, err)
		return nil, nil, nil, false
	}
	if ss.Status == "completed" || ss.Status == "canceled" {
		unlock()
		writeJSON(w, http.StatusConflict, errorBody("invalid_status", "the checkout session is "+ss.Status+" and can no longer change"))
		return nil, nil, nil, false
	}
	return ss, &req, unlock, true
}

// outcome is what an operation leaves to show.
type outcome struct {
	cart     *view.CartView
	order    *view.OrderView
	messages []message
}

// call runs an agent tool in the session's conversation; writes get a
// key of their own.
func (h *handler) call(ctx context.Context, ss *session, name string, args map[string]any) (reply toolReply, err error) {
	if name != "view_cart" {
		ss.Writes++
		args["idempotency_key"] = fmt.Sprintf("ucp-%d", ss.Writes)
	}
	b, err := json.Marshal(args)
	if err != nil {
		return toolReply{}, fmt.Errorf("ucp: %s arguments: %w", name, err)
	}
	rep, err := h.eng.CallTool(ctx, ss.turn(), name, string(b))
	if err != nil {
		return toolReply{}, fmt.Errorf("ucp: %s: %w", name, err)
	}
	return toolReply{Content: rep.Content, IsError: rep.IsError, Cart: rep.Cart, Order: rep.Order}, nil
}

type toolReply struct {
	Content string
	IsError bool
	Cart    *view.CartView
	Order   *view.OrderView
}

// cart is the session's cart as it is now.
func (h *handler) cart(ctx context.Context, ss *session) (*view.CartView, error) {
	rep, err := h.call(ctx, ss, "view_cart", map[string]any{})
	if err != nil {
		return nil, err
	}
	if rep.Cart == nil {
		return &view.CartView{}, nil
	}
	return rep.Cart, nil
}

// toolMessage is a tool's error as a UCP error message.
func toolMessage(content, path string) message {
	var e struct {
		Error string `json:"error"`
	}
	text := content
	if json.Unmarshal([]byte(content), &e) == nil && e.Error != "" {
		text = e.Error
	}
	code := "invalid"
	switch {
	case strings.Contains(text, "out of stock") || strings.Contains(text, "left"):
		code = "out_of_stock"
	case strings.Contains(text, "unknown") || strings.Contains(text, "not found") || strings.Contains(text, "no product"):
		code = "item_unavailable"
	}
	return message{Type: "error", Code: code, Path: path, Content: text, Severity: "recoverable"}
}
