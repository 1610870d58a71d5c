package admin

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// bubble is one speech bubble of the conversation view: a shopper's
// message, the assistant's answer to it (every model call and tool call
// of the turn folded into one bubble, the tools under it), a staff
// member's reply, or a private note.
type bubble struct {
	Kind    string // user, assistant, merchant or note (the CSS class)
	Who     string
	Text    string
	At      time.Time
	TraceID string
	Parts   []entry // the messages behind it, for their model, tokens and cost
	Calls   []callView
	Cards   []productCard
}

// productCard is a product as the shopper saw it: title and price as the
// tool result recorded them, the photo the product has now.
type productCard struct {
	SKU, Title, Price, Image string
}

// ModelName is the model that wrote the message, "" for a staff member.
func (e entry) ModelName() string {
	if strings.HasPrefix(e.Model, "staff:") {
		return ""
	}
	return e.Model
}

// maxCards bounds the product cards shown under one answer.
const maxCards = 10

// bubbles turns the paired transcript and the notes into the
// conversation view, oldest first; notes go where they were written.
func bubbles(es []entry, notes []catalog.ConversationNote) []bubble {
	var out []bubble
	turn := -1 // the assistant bubble of the current turn
	for _, e := range es {
		switch e.Role {
		case catalog.RoleUser:
			out, turn = append(out, bubble{Kind: "user", Who: "Shopper", Text: e.Content, At: e.CreatedAt, TraceID: e.TraceID}), -1
		case catalog.RoleMerchant:
			who := strings.TrimPrefix(e.Model, "staff:")
			if who == "" {
				who = "Staff"
			}
			out, turn = append(out, bubble{Kind: "merchant", Who: who, Text: e.Content, At: e.CreatedAt, Parts: []entry{e}}), -1
		case catalog.RoleAssistant:
			if turn < 0 {
				out, turn = append(out, bubble{Kind: "assistant", Who: "Assistant", At: e.CreatedAt}), len(out)
			}
			b := &out[turn]
			if t := strings.TrimSpace(e.Content); t != "" {
				if b.Text != "" {
					b.Text += "\n\n"
				}
				b.Text += t
			}
			b.Parts, b.Calls = append(b.Parts, e), append(b.Calls, e.Calls...)
			for _, c := range e.Calls {
				b.Cards = appendCards(b.Cards, c)
			}
		default: // a tool result without its call, a system message
			out = append(out, bubble{Kind: string(e.Role), Who: string(e.Role), Text: e.Content, At: e.CreatedAt, Parts: []entry{e}})
		}
	}
	for _, n := range notes {
		out = append(out, bubble{Kind: "note", Who: n.Author, Text: n.Body, At: n.CreatedAt})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out
}

// appendCards adds the products a tool result listed: a list of
// products (search, similar, top sellers, comparison) or one product
// (its details).
func appendCards(cards []productCard, c callView) []productCard {
	if !c.Answered || c.IsError {
		return cards
	}
	var res struct {
		Products []struct{ SKU, Title, Price string }
		SKU      string
		Title    string
		Price    string
	}
	if json.Unmarshal([]byte(c.Result), &res) != nil {
		return cards
	}
	if res.SKU != "" && res.Title != "" && c.Name == "get_product_details" {
		res.Products = append(res.Products, struct{ SKU, Title, Price string }{res.SKU, res.Title, res.Price})
	}
	for _, p := range res.Products {
		if p.SKU == "" || p.Title == "" || len(cards) >= maxCards || hasCard(cards, p.SKU) {
			continue
		}
		cards = append(cards, productCard{SKU: p.SKU, Title: p.Title, Price: p.Price})
	}
	return cards
}

func hasCard(cards []productCard, sku string) bool {
	for _, c := range cards {
		if c.SKU == sku {
			return true
		}
	}
	return false
}

// withPhotos fills the cards' photos from the products as they are now,
// in one read.
func withPhotos(ctx context.Context, db bun.IDB, bs []bubble) error {
	var skus []string
	for _, b := range bs {
		for _, c := range b.Cards {
			skus = append(skus, c.SKU)
		}
	}
	if len(skus) == 0 {
		return nil
	}
	ps, err := catalog.GetProducts(ctx, db, skus)
	if err != nil {
		return err
	}
	photo := map[string]string{}
	for _, p := range ps {
		if len(p.ImageURLs) > 0 {
			photo[p.SKU] = p.ImageURLs[0]
		}
	}
	for i := range bs {
		for j := range bs[i].Cards {
			bs[i].Cards[j].Image = photo[bs[i].Cards[j].SKU]
		}
	}
	return nil
}
