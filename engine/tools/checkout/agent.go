package checkout

import (
	"context"
	"encoding/json"
	"net/mail"
	"strings"

	"shopbot/catalog/search/analysis"
	"shopbot/engine/session"
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// The agent door's checkout (adapters/mcp, adapters/ucp): an agent
// gives the buyer's contact explicitly, as structured arguments, and
// never card data. create_checkout checks the contact and the delivery
// and returns the summary; complete_checkout, a later call, places the
// order of that summary (the chat checkout's own flow: runCheckout
// without, then with confirm) and says how to pay.

// AgentOnly are the tools only agents call; the chat model never sees
// them.
func AgentOnly(d *Deps) []toolkit.Tool {
	return []toolkit.Tool{createCheckoutTool(d), completeCheckoutTool(d)}
}

// AgentAddress is a shipping address as an agent gives it.
type AgentAddress struct {
	Line1      string `json:"line1"`
	Line2      string `json:"line2,omitempty"`
	City       string `json:"city"`
	Region     string `json:"region,omitempty"`
	PostalCode string `json:"postal_code,omitempty"`
	Country    string `json:"country"`
}

// AgentBuyer is the buyer's contact as an agent gives it: a name, an
// e-mail or a phone (or both), and the shipping address.
type AgentBuyer struct {
	Name    string       `json:"name"`
	Email   string       `json:"email,omitempty"`
	Phone   string       `json:"phone,omitempty"`
	Address AgentAddress `json:"address"`
}

type createCheckoutArgs struct {
	AgentBuyer
	Delivery string `json:"delivery,omitempty"`
}

// PaymentInfo says how an order placed by an agent is paid.
type PaymentInfo struct {
	// Status is "awaiting_payment".
	Status string `json:"status"`
	// URL is where the buyer pays, when a payment link is configured.
	URL         string `json:"url,omitempty"`
	Instruction string `json:"instruction"`
}

type agentCheckoutData struct {
	checkoutData
	Payment *PaymentInfo `json:"payment,omitempty"`
	// Amounts: the summary's figures in minor units (agent_delivery.go).
	Amounts *agentAmounts `json:"amounts,omitempty"`
}

func addressSchema() map[string]any {
	return toolkit.Object(map[string]any{
		"line1":       toolkit.Str("street and house", 120),
		"line2":       toolkit.Str("flat, floor", 120),
		"city":        toolkit.Str("", 60),
		"region":      toolkit.Str("state or region", 60),
		"postal_code": toolkit.Str("", 16),
		"country":     toolkit.Str("ISO 3166-1 alpha-2 code or country name", 60),
	}, "line1", "city", "country")
}

func createCheckoutTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name: "create_checkout",
		Description: "Start checking out the cart for the buyer: their name, e-mail or phone and shipping address, " +
			"given by the buyer. Returns what is missing, the delivery methods to choose from, or the summary " +
			"(lines, delivery, total) to show the buyer before complete_checkout, with every delivery method for the address " +
			"and its price (call again with another delivery to change it). Never send card data.",
		Schema: toolkit.Object(map[string]any{
			"name":     toolkit.Str("recipient's full name", 100),
			"email":    toolkit.Str("buyer's e-mail (e-mail or phone is required)", 254),
			"phone":    toolkit.Str("buyer's phone, digits with an optional leading +", 32),
			"address":  addressSchema(),
			"delivery": toolkit.Str("delivery method name, when asked to choose", 60),
		}, "name", "address"),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a createCheckoutArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			ca, missing, invalid := a.AgentBuyer.checkoutArgs()
			if len(missing) > 0 || len(invalid) > 0 {
				return toolkit.Result{Data: checkoutData{Status: "need_details", Missing: missing, Invalid: invalid}}, nil
			}
			ca.Delivery = a.Delivery
			s.State.Checkout = nil // the contact given now, not an earlier one
			res, err := runCheckout(ctx, d, s, ca)
			if err != nil {
				return res, err
			}
			return agentSummary(ctx, d, s, res)
		},
	}
}

func completeCheckoutTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name: "complete_checkout",
		Description: "Place the order of the summary create_checkout returned, once the buyer confirmed it. " +
			"Returns the order and how to pay; no card data is taken here.",
		Schema: toolkit.Object(map[string]any{}),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			if err := toolkit.DecodeArgs(raw, &struct{}{}); err != nil {
				return toolkit.Result{}, err
			}
			st := s.State.Checkout
			if st == nil || st.Awaiting != "confirm" {
				return toolkit.Result{}, toolkit.Errorf("no checkout summary to complete: call create_checkout first")
			}
			res, err := runCheckout(ctx, d, s, checkoutArgs{Confirm: true, Delivery: st.Delivery, Email: st.Email, PhoneOptional: true})
			if err != nil || res.Order == nil {
				return res, err
			}
			res.Data = agentCheckoutData{checkoutData: res.Data.(checkoutData), Payment: d.payment(ctx, res.Order)}
			return res, nil
		},
	}
}

// payment says how to pay an order just placed: the configured link,
// else the merchant takes it from here.
func (d *Deps) payment(ctx context.Context, o *view.OrderView) *PaymentInfo {
	if d.PaymentLink != nil {
		if url, err := d.PaymentLink(ctx, o); err == nil && url != "" {
			return &PaymentInfo{Status: "awaiting_payment", URL: url, Instruction: "give the buyer this link to pay"}
		}
	}
	return &PaymentInfo{Status: "awaiting_payment", Instruction: "the order awaits payment; the merchant contacts the buyer about it"}
}

// checkoutArgs validates the buyer's contact as the chat checkout's
// arguments; missing and invalid name what is wrong, as the chat's
// need_details does.
func (b AgentBuyer) checkoutArgs() (ca checkoutArgs, missing []string, invalid map[string]string) {
	bad := func(field, why string) {
		if invalid == nil {
			invalid = map[string]string{}
		}
		invalid[field] = why
	}
	ca.Name = analysis.CleanText(b.Name)
	ca.Email = strings.TrimSpace(b.Email)
	ca.Phone = analysis.CleanText(b.Phone)
	ca.PhoneOptional = ca.Email != ""
	switch {
	case ca.Name == "":
		missing = append(missing, "name")
	case checkName(ca.Name) != "":
		bad("name", checkName(ca.Name))
	}
	switch {
	case ca.Email == "" && ca.Phone == "":
		missing = append(missing, "email or phone")
	case ca.Email != "" && checkEmail(ca.Email) != "":
		bad("email", checkEmail(ca.Email))
	}
	if ca.Phone != "" && checkPhone(ca.Phone) != "" {
		bad("phone", checkPhone(ca.Phone))
	}
	ad := b.Address
	for _, f := range []struct{ name, v string }{{"address.line1", ad.Line1}, {"address.city", ad.City}, {"address.country", ad.Country}} {
		if analysis.CleanText(f.v) == "" {
			missing = append(missing, f.name)
		}
	}
	ca.Address = ad.String()
	if len(missing) == 0 && checkAddress(ca.Address) != "" {
		bad("address", checkAddress(ca.Address))
	}
	return ca, missing, invalid
}

// String is the address on one line: street, city, region and postal
// code, country (the order keeps it so; catalog.CountryIn reads the
// country from it).
func (a AgentAddress) String() string {
	var parts []string
	for _, p := range []string{a.Line1, a.Line2, a.City, strings.TrimSpace(a.Region + " " + a.PostalCode), a.Country} {
		if p = analysis.CleanText(p); p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

func checkEmail(v string) string {
	a, err := mail.ParseAddress(v)
	if err != nil || a.Address != v || a.Name != "" || len(v) > 254 {
		return "must be an e-mail address such as jane@example.com"
	}
	return ""
}
