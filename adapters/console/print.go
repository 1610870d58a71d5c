package console

import (
	"context"
	"fmt"
	"io"
	"strings"

	"shopbot/engine"
	"shopbot/engine/view"
)

// printer renders engine events as plain text. Interactive sessions see
// the text as it streams; scripts get the whole text, then the cards, cart
// and order, then a blank line.
type printer struct {
	out           io.Writer
	stream        bool
	body          strings.Builder // streamed text so far
	blocks        []string        // cards, cart, order, buttons
	final         string
	saidSomething bool
}

func (p *printer) send(_ context.Context, ev engine.Event) error {
	p.saidSomething = true
	switch ev.Kind {
	case engine.EventText:
		p.body.WriteString(ev.Text)
		if p.stream {
			fmt.Fprint(p.out, ev.Text)
		}
	case engine.EventDone, engine.EventError:
		p.final = ev.Text
	case engine.EventCards:
		for _, c := range ev.Cards {
			p.blocks = append(p.blocks, cardLine(c))
		}
	case engine.EventCart:
		p.blocks = append(p.blocks, cartLines(ev.Cart)...)
	case engine.EventOrder:
		o := ev.Order
		p.blocks = append(p.blocks, fmt.Sprintf("order %s · %s · %s", o.Number, o.Status, o.TotalText))
		for _, l := range o.Lines {
			p.blocks = append(p.blocks, fmt.Sprintf("  %d × %s", l.Qty, withVariant(l.Title, l.Variant)))
		}
		if pl := o.PromoLine(); pl != "" {
			p.blocks = append(p.blocks, "  "+pl)
		}
	case engine.EventButtons:
		var labels []string
		for _, b := range ev.Buttons {
			labels = append(labels, "["+b.Label+"] /do "+b.Data)
		}
		p.blocks = append(p.blocks, "  "+strings.Join(labels, "  "))
	case engine.EventPicker:
		if ev.Picker != nil {
			p.blocks = append(p.blocks, pickerLines(ev.Picker)...)
		}
	}
	return nil
}

func (p *printer) text(s string) {
	p.final = s
	p.saidSomething = true
}

// finish prints what remains of the turn.
func (p *printer) finish() error {
	text := p.final
	if text == "" {
		text = p.body.String()
	}
	var b strings.Builder
	switch {
	case p.stream && p.body.Len() > 0:
		b.WriteString("\n") // the text is already on screen
	case text != "":
		b.WriteString(text + "\n")
	}
	for _, blk := range p.blocks {
		b.WriteString(blk + "\n")
	}
	b.WriteString("\n")
	_, err := io.WriteString(p.out, b.String())
	return err
}

func cardLine(c view.Card) string {
	stock := "in stock"
	switch {
	case !c.InStock:
		stock = "out of stock"
	case c.Stock <= 5:
		stock = fmt.Sprintf("only %d left", c.Stock)
	}
	line := fmt.Sprintf("%s · %s · %s · %s", c.SKU, c.Title, c.PriceText, stock)
	if c.VariantCount > 0 {
		// Adding a parent asks for its options first (the picker).
		line += fmt.Sprintf(" · %d variants", c.VariantCount)
		if len(c.OptionNames) > 0 {
			line += " (" + strings.Join(c.OptionNames, ", ") + ")"
		}
	}
	return line
}

func cartLines(c *view.CartView) []string {
	if c == nil || len(c.Lines) == 0 {
		return []string{"cart · empty"}
	}
	lines := []string{fmt.Sprintf("cart · %d item(s) · %s", c.Units, c.TotalText)}
	for _, l := range c.Lines {
		s := fmt.Sprintf("  %d × %s (%s) · %s", l.Qty, withVariant(l.Title, l.Variant), l.SKU, l.PriceText)
		if l.AddedBy != "" && c.Shared {
			s += " · added by " + l.AddedBy
		}
		lines = append(lines, s)
	}
	if pl := c.PromoLine(); pl != "" {
		lines = append(lines, "  "+pl)
	}
	return lines
}

// withVariant names a cart or order line's variant after its title:
// "Trail Runner (42 / Navy)".
func withVariant(title, variant string) string {
	if variant == "" {
		return title
	}
	return title + " (" + variant + ")"
}
