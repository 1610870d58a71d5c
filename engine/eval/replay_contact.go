package eval

import (
	"encoding/json"

	"shopbot/catalog"
)

// contactBefore reconstructs the contact details the customer had saved
// before turn k. Checkout saves them when it shows its summary, and the
// summary, kept in the transcript, holds them: before turn k they are
// the last summary's before it. Before the conversation's first summary
// they are that summary's, less each field the shopper typed into a
// checkout of this conversation up to it (those were new then); with no
// summary in the conversation, the customer's details now.
func contactBefore(ms []catalog.Message, turns []storedTurn, k int, now catalog.Contact) catalog.Contact {
	given := map[string]bool{}
	for j, t := range turns {
		for _, m := range ms[t.start:t.end] {
			for _, c := range m.ToolCalls {
				if c.Name == "checkout" {
					markGiven(given, c.Arguments)
				}
			}
			ct, ok := summaryContact(m)
			if !ok {
				continue
			}
			ct.Email = now.Email
			if j >= k {
				return forget(ct, given)
			}
			now = ct
		}
	}
	return now
}

func markGiven(given map[string]bool, args string) {
	var a struct{ Name, Phone, Address string }
	if json.Unmarshal([]byte(args), &a) != nil {
		return
	}
	for f, v := range map[string]string{"name": a.Name, "phone": a.Phone, "address": a.Address} {
		if v != "" {
			given[f] = true
		}
	}
}

// summaryContact is the contact of a checkout summary (status confirm).
func summaryContact(m catalog.Message) (catalog.Contact, bool) {
	if m.Role != catalog.RoleTool || m.ToolName != "checkout" || m.ToolError {
		return catalog.Contact{}, false
	}
	var r struct {
		Status  string
		Summary *struct {
			Contact struct{ Name, Phone, Address string }
		}
	}
	if json.Unmarshal([]byte(m.Content), &r) != nil || r.Status != "confirm" || r.Summary == nil {
		return catalog.Contact{}, false
	}
	c := r.Summary.Contact
	return catalog.Contact{Name: c.Name, Phone: c.Phone, Address: c.Address}, true
}

func forget(ct catalog.Contact, given map[string]bool) catalog.Contact {
	if given["name"] {
		ct.Name = ""
	}
	if given["phone"] {
		ct.Phone = ""
	}
	if given["address"] {
		ct.Address = ""
	}
	return ct
}
