package slack

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/slack-go/slack"

	"shopbot/engine/view"
)

// Slack's Block Kit limits.
const (
	maxBlocks       = 50
	maxSectionChars = 3000
	maxButtonLabel  = 75
	maxAltText      = 2000
	maxActionsPer   = 25
	cartLineBlocks  = 40 // lines shown in a cart message
	orderLinesShown = 20
)

func mrkdwn(s string) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.MarkdownType, s, false, false)
}

func plain(s string) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.PlainTextType, truncateRunes(s, maxButtonLabel), false, false)
}

// textBlocks renders mrkdwn as sections of at most 3,000 characters.
func textBlocks(md string) []slack.Block {
	var out []slack.Block
	for _, part := range splitText(md, maxSectionChars) {
		out = append(out, slack.NewSectionBlock(mrkdwn(part), nil, nil))
	}
	return out
}

// button makes a button whose value and action_id are the engine action.
func button(label string, a view.Action) *slack.ButtonBlockElement {
	data := a.Encode()
	return slack.NewButtonBlockElement(data, data, plain(label))
}

// cardBlocks renders a product: a section with its image, then its
// buttons.
func cardBlocks(c view.Card) []slack.Block {
	var b strings.Builder
	fmt.Fprintf(&b, "*%s*\n", escape(truncateRunes(c.Title, 200)))
	if c.Brand != "" {
		fmt.Fprintf(&b, "%s · ", escape(truncateRunes(c.Brand, 80)))
	}
	fmt.Fprintf(&b, "*%s* · %s", escape(c.PriceText), stockText(c))
	if c.RatingCount > 0 {
		fmt.Fprintf(&b, " · ★ %.1f (%d)", c.Rating, c.RatingCount)
	}
	if c.Summary != "" {
		fmt.Fprintf(&b, "\n%s", escape(truncateRunes(c.Summary, 600)))
	}
	var acc *slack.Accessory
	if isWebURL(c.ImageURL) && len(c.ImageURL) <= 3000 {
		acc = slack.NewAccessory(slack.NewImageBlockElement(c.ImageURL, truncateRunes(c.Title, maxAltText)))
	}
	section := slack.NewSectionBlock(mrkdwn(b.String()), nil, acc, slack.SectionBlockOptionBlockID("card:"+truncateRunes(c.SKU, 200)))
	var els []slack.BlockElement
	if c.InStock {
		add := button("Add to cart", view.Action{Kind: view.ActAdd, SKU: c.SKU, Qty: 1})
		add.Style = slack.StylePrimary
		els = append(els, add)
	} else {
		els = append(els, button("Notify me when back", view.Action{Kind: view.ActNotify, SKU: c.SKU}))
	}
	els = append(els,
		button("Details", view.Action{Kind: view.ActDetails, SKU: c.SKU}),
		button("More like this", view.Action{Kind: view.ActSimilar, SKU: c.SKU}))
	return []slack.Block{section, slack.NewActionBlock("", els...)}
}

func stockText(c view.Card) string {
	switch {
	case !c.InStock || c.Stock <= 0:
		return "out of stock"
	case c.Stock <= 5:
		return "only " + strconv.Itoa(c.Stock) + " left"
	default:
		return "in stock"
	}
}

// cardsBlocks renders products, each once (a message's action ids must
// be unique).
func cardsBlocks(cs []view.Card) []slack.Block {
	var out []slack.Block
	seen := map[string]bool{}
	for _, c := range cs {
		if !seen[c.SKU] {
			seen[c.SKU] = true
			out = append(out, cardBlocks(c)...)
		}
	}
	return out
}

// isWebURL reports whether Slack can fetch u as an image.
func isWebURL(u string) bool {
	return strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")
}

// plainOf is the notification text of a card message.
func plainOf(cs []view.Card) string {
	names := make([]string, 0, len(cs))
	for _, c := range cs {
		names = append(names, c.Title)
	}
	return strings.Join(names, ", ")
}

// chunkBlocks splits blocks into messages of at most 50, never separating
// a product's section from its buttons.
func chunkBlocks(bs []slack.Block) [][]slack.Block {
	var out [][]slack.Block
	for len(bs) > 0 {
		n := min(len(bs), maxBlocks)
		if n < len(bs) && bs[n].BlockType() == slack.MBTAction && n > 1 {
			n-- // keep a card's section with its actions
		}
		out = append(out, bs[:n])
		bs = bs[n:]
	}
	return out
}

func firstChunk(bs []slack.Block) []slack.Block {
	if c := chunkBlocks(bs); len(c) > 0 {
		return c[0]
	}
	return nil
}

// buttonBlocks lays quick replies out in actions blocks of up to 25, with
// unique action ids.
func buttonBlocks(bs []view.Button) []slack.Block {
	seen := map[string]bool{}
	var els []slack.BlockElement
	for _, b := range bs {
		if seen[b.Data] || b.Data == "" {
			continue
		}
		seen[b.Data] = true
		els = append(els, slack.NewButtonBlockElement(b.Data, b.Data, plain(b.Label)))
	}
	var out []slack.Block
	for len(els) > 0 && len(out) < 2 {
		n := min(len(els), maxActionsPer)
		out = append(out, slack.NewActionBlock("", els[:n]...))
		els = els[n:]
	}
	return out
}

// cartBlocks renders a cart: who added what in a shared cart, the total,
// and the buttons to change it or check out.
func cartBlocks(v *view.CartView) []slack.Block {
	title := "Your cart"
	if v.Shared {
		title = "Channel cart"
	}
	if len(v.Lines) == 0 {
		return []slack.Block{slack.NewSectionBlock(mrkdwn("*"+title+"* is empty."), nil, nil, slack.SectionBlockOptionBlockID("cart"))}
	}
	head := fmt.Sprintf("*%s* · %d item(s) · total *%s*", title, v.Units, escape(v.TotalText))
	out := []slack.Block{slack.NewSectionBlock(mrkdwn(head), nil, nil, slack.SectionBlockOptionBlockID("cart"))}
	for i, l := range v.Lines {
		if i == cartLineBlocks {
			out = append(out, slack.NewContextBlock("", mrkdwn(fmt.Sprintf("…and %d more line(s)", len(v.Lines)-i))))
			break
		}
		text := fmt.Sprintf("%d × %s — %s", l.Qty, escape(truncateRunes(withVariant(l.Title, l.Variant), 200)), escape(l.PriceText))
		if v.Shared && l.AddedBy != "" {
			text += "\n_added by " + escape(truncateRunes(l.AddedBy, 80)) + "_"
		}
		rm := button("Remove", view.Action{Kind: view.ActRemove, SKU: l.SKU})
		out = append(out, slack.NewSectionBlock(mrkdwn(text), nil, slack.NewAccessory(rm), slack.SectionBlockOptionBlockID("cart:"+truncateRunes(l.SKU, 200))))
	}
	if pl := v.PromoLine(); pl != "" {
		out = append(out, slack.NewContextBlock("", mrkdwn(escape(pl))))
	}
	co := button("Check out", view.Action{Kind: view.ActCheckout})
	co.Style = slack.StylePrimary
	return append(out, slack.NewActionBlock("cart:actions", co))
}

// orderBlocks renders an order under a headline ("Order placed").
func orderBlocks(o *view.OrderView, headline string) []slack.Block {
	var b strings.Builder
	fmt.Fprintf(&b, "*%s: #%s* · %s\n", escape(headline), escape(o.Number), escape(o.Status))
	for i, l := range o.Lines {
		if i == orderLinesShown {
			fmt.Fprintf(&b, "…and %d more line(s)\n", len(o.Lines)-i)
			break
		}
		fmt.Fprintf(&b, "%d × %s\n", l.Qty, escape(truncateRunes(withVariant(l.Title, l.Variant), 160)))
	}
	if pl := o.PromoLine(); pl != "" {
		fmt.Fprintf(&b, "%s\n", escape(pl))
	}
	fmt.Fprintf(&b, "Total *%s*", escape(o.TotalText))
	if o.Tracking != "" {
		fmt.Fprintf(&b, "\nTracking: %s", escape(truncateRunes(o.Tracking, 300)))
	}
	return textBlocks(b.String())
}

// uniqueActions makes the action ids of a message unique, as Slack
// requires, by suffixing repeats ("add|SKU|1#2"); the engine reads the
// button's value, which stays as it is.
func uniqueActions(blocks []slack.Block) []slack.Block {
	seen := map[string]int{}
	fix := func(b *slack.ButtonBlockElement) {
		seen[b.ActionID]++
		if n := seen[b.ActionID]; n > 1 {
			b.ActionID += "#" + strconv.Itoa(n)
		}
	}
	for _, bl := range blocks {
		switch bl := bl.(type) {
		case *slack.SectionBlock:
			if bl.Accessory != nil && bl.Accessory.ButtonElement != nil {
				fix(bl.Accessory.ButtonElement)
			}
		case *slack.ActionBlock:
			if bl.Elements == nil {
				continue
			}
			for _, el := range bl.Elements.ElementSet {
				if b, ok := el.(*slack.ButtonBlockElement); ok {
					fix(b)
				}
			}
		}
	}
	return blocks
}

// withVariant names a cart or order line's variant after its title:
// "Trail Runner (42 / Navy)".
func withVariant(title, variant string) string {
	if variant == "" {
		return title
	}
	return title + " (" + variant + ")"
}
