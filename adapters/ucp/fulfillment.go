package ucp

import (
	"encoding/json"
	"strings"
)

// Fulfillment (the spec's fulfillment extension, types/fulfillment.json):
// the session shows one shipping method whose one group holds every line
// and offers the shop's delivery methods for the address as options,
// each with its price for this cart; the buyer picks one by its id in
// update (fulfillment.methods[].groups[].selected_option_id), and the
// session's totals include the chosen option's price before complete.
// Without a choice the first option the shop offers is taken. An unknown
// id is an error message at its path, and the session stays incomplete.

// option is a delivery method offered for the session's address.
type option struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Amount int64  `json:"amount"`
	Pickup bool   `json:"pickup,omitempty"`
}

// optionPath is where a selected option sits in a request.
const optionPath = "$.fulfillment.methods[0].groups[0].selected_option_id"

// optionID is the id of a delivery method by its name: stable while the
// merchant keeps the name.
func optionID(name string) string {
	var b strings.Builder
	b.WriteString("dm_")
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// selectedOption is the option id a request selects ("" for none).
func (req *checkoutRequest) selectedOption() string {
	if req.Fulfillment == nil {
		return ""
	}
	for _, m := range req.Fulfillment.Methods {
		for _, g := range m.Groups {
			if g.SelectedOptionID != nil && *g.SelectedOptionID != "" {
				return *g.SelectedOptionID
			}
		}
	}
	return ""
}

// summary is what create_checkout answers that the session keeps.
type summary struct {
	Status   string            `json:"status"`
	Missing  []string          `json:"missing"`
	Invalid  map[string]string `json:"invalid"`
	Delivery []struct {
		Name   string `json:"name"`
		Amount *int64 `json:"amount"`
		Chosen bool   `json:"chosen"`
		Pickup bool   `json:"pickup"`
	} `json:"delivery_options"`
	Amounts *struct {
		Total int64 `json:"total"`
	} `json:"amounts"`
}

// keep records a confirm summary's options, choice and total.
func (ss *session) keep(res *summary) {
	ss.Options, ss.Delivery, ss.Total = nil, "", nil
	for _, d := range res.Delivery {
		o := option{ID: optionID(d.Name), Title: d.Name, Pickup: d.Pickup}
		if d.Amount != nil {
			o.Amount = *d.Amount
		}
		ss.Options = append(ss.Options, o)
		if d.Chosen {
			ss.Delivery = d.Name
		}
	}
	if res.Amounts != nil {
		ss.Total = &res.Amounts.Total
	}
}

// chosen is the session's chosen option, nil when none.
func (ss *session) chosen() *option {
	for i := range ss.Options {
		if ss.Options[i].Title == ss.Delivery && ss.Delivery != "" {
			return &ss.Options[i]
		}
	}
	return nil
}

// fulfillment renders the session's fulfillment for lineIDs.
func (ss *session) fulfillment(lineIDs []string) map[string]any {
	if len(ss.Options) == 0 {
		return nil
	}
	opts := make([]map[string]any, len(ss.Options))
	for i, o := range ss.Options {
		opts[i] = map[string]any{"id": o.ID, "title": o.Title, "totals": []map[string]any{total("total", o.Amount)}}
	}
	group := map[string]any{"id": "fg_1", "line_item_ids": lineIDs, "options": opts}
	if c := ss.chosen(); c != nil {
		group["selected_option_id"] = c.ID
	}
	method := map[string]any{"id": "fm_1", "type": "shipping", "line_item_ids": lineIDs, "groups": []any{group}}
	if ss.Address != nil {
		dest := map[string]any{"id": "dest_1"}
		b, _ := json.Marshal(ss.Address)
		_ = json.Unmarshal(b, &dest)
		method["destinations"] = []any{dest}
		method["selected_destination_id"] = "dest_1"
	}
	return map[string]any{"methods": []any{method}}
}

// paymentURL is the payment link in complete_checkout's reply, if any.
func paymentURL(content string) string {
	var r struct {
		Payment struct {
			URL string `json:"url"`
		} `json:"payment"`
	}
	if json.Unmarshal([]byte(content), &r) != nil {
		return ""
	}
	return r.Payment.URL
}
