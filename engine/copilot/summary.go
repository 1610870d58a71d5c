package copilot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// OfflineSummary puts the three lines together without a model: the
// shopper's latest requests, the products the assistant showed and the
// cart, and the newest order.
func OfflineSummary(ctx context.Context, db bun.IDB, conv *catalog.Conversation, msgs []catalog.Message) ([]string, error) {
	lines := []string{askedLine(msgs), shownLine(msgs), "Order: none yet."}
	if conv.CustomerID == nil {
		return lines, nil
	}
	cart, err := catalog.GetCart(ctx, db, catalog.PersonalCart(*conv.CustomerID))
	if err != nil {
		return nil, err
	}
	if n := cart.Count(); n > 0 {
		amount, currency := cart.Total()
		lines[1] += fmt.Sprintf(" Cart: %d item%s, %s.", n, plural(n), catalog.FormatPrice(amount, currency))
	} else {
		lines[1] += " Cart: empty."
	}
	orders, _, err := catalog.ListOrderPage(ctx, db, catalog.OrderList{Customer: *conv.CustomerID, Limit: 1})
	if err != nil {
		return nil, err
	}
	if len(orders) > 0 {
		o := orders[0]
		lines[2] = fmt.Sprintf("Order: %s is %s, %s, placed %s.", o.Number, o.Status, catalog.FormatPrice(o.Total, o.Currency), o.CreatedAt.UTC().Format("2 Jan 2006"))
	}
	return lines, nil
}

// askedLine quotes the shopper's last three messages (buttons left out).
func askedLine(msgs []catalog.Message) string {
	var asked []string
	for i := len(msgs) - 1; i >= 0 && len(asked) < 3; i-- {
		m := msgs[i]
		if m.Role != catalog.RoleUser || strings.HasPrefix(m.Content, "[button] ") || strings.TrimSpace(m.Content) == "" {
			continue
		}
		asked = append([]string{strconv.Quote(clipRunes(strings.Join(strings.Fields(m.Content), " "), 80))}, asked...)
	}
	if len(asked) == 0 {
		return "Asked: nothing in words yet."
	}
	return "Asked: " + strings.Join(asked, ", ") + "."
}

// shownLine names the products the tool results listed, newest first.
func shownLine(msgs []catalog.Message) string {
	var shown []string
	seen := map[string]bool{}
	total := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role != catalog.RoleTool || m.ToolError {
			continue
		}
		var res struct {
			Products []struct{ SKU, Title, Price string }
		}
		if json.Unmarshal([]byte(m.Content), &res) != nil {
			continue
		}
		for _, p := range res.Products {
			if p.SKU == "" || seen[p.SKU] {
				continue
			}
			seen[p.SKU] = true
			total++
			if len(shown) < 3 {
				shown = append(shown, p.Title+" ("+p.Price+")")
			}
		}
	}
	if total == 0 {
		return "Shown: no products."
	}
	more := ""
	if total > len(shown) {
		more = fmt.Sprintf(" and %d more", total-len(shown))
	}
	return fmt.Sprintf("Shown: %s%s.", strings.Join(shown, ", "), more)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Transcript is the conversation as the model reads it to summarize:
// one line a message, who said it and what (clipped), empty messages
// and system prompts left out.
func Transcript(msgs []catalog.Message) string {
	var convo strings.Builder
	for _, m := range msgs {
		who := map[catalog.Role]string{catalog.RoleUser: "Shopper", catalog.RoleAssistant: "Assistant", catalog.RoleMerchant: "Staff", catalog.RoleTool: "Tool " + m.ToolName}[m.Role]
		if who == "" || strings.TrimSpace(m.Content) == "" {
			continue
		}
		fmt.Fprintf(&convo, "%s: %s\n", who, clipRunes(m.Content, 600))
	}
	return convo.String()
}

// SummaryLines are the first three non-blank lines of the model's
// summary; none is an error.
func SummaryLines(text string) ([]string, error) {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return nil, errors.New("engine: the model's summary is empty")
	}
	if len(lines) > 3 {
		lines = lines[:3]
	}
	return lines, nil
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
