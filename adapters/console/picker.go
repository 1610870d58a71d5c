package console

import (
	"fmt"
	"strings"

	"shopbot/engine/view"
)

// pickerLines prints a variant picker: the product, what was chosen so
// far, the question, then one "/do" line per value. A value's line adds
// the variant (add|SKU|1) on the last option, or narrows the picker
// (opt|PARENT|0|indexes) on an earlier one; typed back, it is the same
// button press the other channels send.
func pickerLines(p *view.Picker) []string {
	lines := []string{fmt.Sprintf("%s · %s · %s", p.SKU, p.Title, p.PriceText)}
	if chosen := chosenText(p.Chosen); chosen != "" {
		lines = append(lines, "  chosen: "+chosen)
	}
	prompt := p.Prompt
	if prompt == "" {
		prompt = p.Option + "?"
	}
	lines = append(lines, "  "+prompt)
	for _, b := range p.Values {
		lines = append(lines, "  ["+b.Label+"] /do "+b.Data)
	}
	return lines
}

// chosenText is "size 42, colour Navy".
func chosenText(cs []view.OptionValue) string {
	parts := make([]string, 0, len(cs))
	for _, c := range cs {
		parts = append(parts, c.Name+" "+c.Value)
	}
	return strings.Join(parts, ", ")
}
