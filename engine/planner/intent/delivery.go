package intent

import (
	"strings"

	"shopbot/catalog"
	"shopbot/catalog/search/analysis"
	"shopbot/engine/session"
)

// Delivery: "how much is delivery to Canada?", "доставка в Германию" (a
// question naming a country), and at checkout the choice among the
// methods offered: "2", "the second", "the courier one", "самовывоз".

const (
	// IntentDeliveryQuote asks what delivery to a country costs; Query
	// is the country's ISO code.
	IntentDeliveryQuote Kind = "delivery_quote"
	// IntentDeliveryChoice chooses a delivery method at checkout; Value
	// is the method's name as offered.
	IntentDeliveryChoice Kind = "delivery_choice"
)

var (
	vDeliveryWords = ph("deliver* | delivery | shipping | ship | ships | postage | courier | доставк* | доставл* | доставит* | доставят | отправ* | пересылк*")
	vPickupWords   = ph("pickup | pick up | pick it up | collect | self pickup | самовывоз* | заберу | забрать | заберу сам | сам заберу")
	// vMethodWords translate what a shopper may call a method to the
	// English word its name likely has.
	vMethodWords = map[string]string{
		"курьер": "courier", "курьером": "courier", "курьерская": "courier", "курьерскую": "courier",
		"экспресс": "express", "срочная": "express", "срочную": "express", "быстрая": "express", "быструю": "express", "fast": "express", "fastest": "express",
		"стандарт": "standard", "стандартная": "standard", "стандартную": "standard", "обычная": "standard", "обычную": "standard", "regular": "standard", "cheapest": "standard",
		"международная": "international", "международную": "international",
	}
)

// matchDeliveryQuote claims a question about delivery that names a country.
func matchDeliveryQuote(m *parseMsg) (Intent, bool) {
	if !hasPhrase(m.toks, vDeliveryWords) {
		return Intent{}, false
	}
	code, ok := catalog.CountryIn(m.raw)
	if !ok {
		return Intent{}, false
	}
	return Intent{Kind: IntentDeliveryQuote, Query: code}, true
}

// matchDeliveryChoice reads the shopper's choice while checkout offers
// delivery methods; a message that names none of them is left to the
// other matchers ("cancel", "cart").
func matchDeliveryChoice(m *parseMsg) (Intent, bool) {
	co := m.st.Checkout
	if co == nil || co.Awaiting != "delivery" || len(co.Options) == 0 {
		return Intent{}, false
	}
	opts := co.Options
	if refs, _ := extractRefs(m.toks, true); len(refs) == 1 && refs[0].Pos != 0 {
		i := refs[0].Pos - 1
		if refs[0].Pos == -1 {
			i = len(opts) - 1
		}
		if i >= 0 && i < len(opts) {
			return Intent{Kind: IntentDeliveryChoice, Value: opts[i].Name}, true
		}
	}
	if hasPhrase(m.toks, vPickupWords) {
		for _, o := range opts {
			if o.Pickup {
				return Intent{Kind: IntentDeliveryChoice, Value: o.Name}, true
			}
		}
	}
	if o, ok := optionNamed(opts, m.toks); ok {
		return Intent{Kind: IntentDeliveryChoice, Value: o.Name}, true
	}
	return Intent{}, false
}

// optionNamed is the one option a word of the message names ("courier"
// in "Express courier"), by its first five letters, or by the English word
// of vMethodWords.
func optionNamed(opts []session.DeliveryChoice, toks []string) (session.DeliveryChoice, bool) {
	var found []session.DeliveryChoice
	for _, o := range opts {
		name := analysis.Tokenize(o.Name)
		for _, t := range toks {
			if en, ok := vMethodWords[t]; ok {
				t = en
			}
			if len([]rune(t)) >= 4 && nameHas(name, t) {
				found = append(found, o)
				break
			}
		}
	}
	if len(found) != 1 {
		return session.DeliveryChoice{}, false
	}
	return found[0], true
}

func nameHas(name []string, t string) bool {
	stem := string([]rune(t)[:min(5, len([]rune(t)))])
	for _, w := range name {
		if strings.HasPrefix(w, stem) {
			return true
		}
	}
	return false
}
