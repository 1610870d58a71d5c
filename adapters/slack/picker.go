package slack

import (
	"context"
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"shopbot/engine/view"
)

// Block Kit limits of a static_select.
const (
	maxSelectOptions = 100
	maxOptionValue   = 150
	maxPlaceholder   = 150
)

// pickerBlock prefixes the block ids of a variant picker, so a choice
// made in it is known for one (interactions.go) and its message redrawn.
const pickerBlock = "picker"

// pickerBlocks renders a variant picker: a section with the product,
// its price and the options chosen so far (and its image), then an
// actions block with a static_select of the option's values. Each
// option's value is the value button's action: "opt|PARENT|0|2" narrows
// the picker, "add|VARIANT|1" adds the variant. Values whose action is
// longer than an option value may be are left out.
func pickerBlocks(p *view.Picker) []slack.Block {
	var b strings.Builder
	fmt.Fprintf(&b, "*%s* · *%s*", escape(truncateRunes(p.Title, 200)), escape(truncateRunes(p.PriceText, 40)))
	for _, c := range p.Chosen {
		fmt.Fprintf(&b, "\n%s: *%s*", escape(truncateRunes(c.Name, 60)), escape(truncateRunes(c.Value, 80)))
	}
	prompt := p.Prompt
	if prompt == "" {
		prompt = p.Option + "?"
	}
	fmt.Fprintf(&b, "\n%s", escape(truncateRunes(prompt, 200)))
	var acc *slack.Accessory
	if isWebURL(p.ImageURL) && len(p.ImageURL) <= 3000 {
		acc = slack.NewAccessory(slack.NewImageBlockElement(p.ImageURL, truncateRunes(p.Title, maxAltText)))
	}
	id := pickerBlock + ":" + truncateRunes(p.SKU, 200)
	out := []slack.Block{slack.NewSectionBlock(mrkdwn(b.String()), nil, acc, slack.SectionBlockOptionBlockID(id))}
	var opts []*slack.OptionBlockObject
	seen := map[string]bool{}
	for _, v := range p.Values {
		if v.Data == "" || len(v.Data) > maxOptionValue || seen[v.Data] || len(opts) == maxSelectOptions {
			continue
		}
		seen[v.Data] = true
		opts = append(opts, slack.NewOptionBlockObject(v.Data, plain(v.Label), nil))
	}
	if len(opts) == 0 {
		return out // nothing left to choose: the engine's text says why
	}
	sel := slack.NewOptionsSelectBlockElement(slack.OptTypeStatic,
		slack.NewTextBlockObject(slack.PlainTextType, truncateRunes(prompt, maxPlaceholder), false, false), pickerBlock, opts...)
	return append(out, slack.NewActionBlock(pickerBlock+":actions", sel))
}

// pickedBlocks is a closed picker: "✓ Trail Runner — 42 / Navy".
func pickedBlocks(l view.CartLine) []slack.Block {
	return textBlocks("✓ *" + escape(truncateRunes(l.Title, 200)) + "* — " + escape(truncateRunes(l.Variant, 200)))
}

// pickedLine is the cart line of the variant a picker's last choice
// added, if the press was one.
func pickedLine(p *pressedPicker, v *view.CartView) (view.CartLine, bool) {
	if p == nil || p.action.Kind != view.ActAdd {
		return view.CartLine{}, false
	}
	for _, l := range v.Lines {
		if l.SKU == p.action.SKU && l.Variant != "" {
			return l, true
		}
	}
	return view.CartLine{}, false
}

// pressedPicker is a choice made in a picker message: its action and the
// message (ts; "" for an ephemeral one, replaced through response_url).
type pressedPicker struct {
	action view.Action
	ts     string
}

// picker shows a picker: a narrowing choice redraws the picker message
// in place (chat.update); anything else posts a new one.
func (r *reply) picker(ctx context.Context, p *view.Picker) {
	blocks := pickerBlocks(p)
	text := p.Title + ": " + p.Prompt
	if pp := r.pressed; pp != nil && pp.ts != "" && pp.action.Kind == view.ActOption {
		if r.update(ctx, pp.ts, text, blocks) {
			return
		}
	}
	r.post(ctx, text, blocks)
}

// picked closes the picker whose last choice was just added.
func (r *reply) picked(ctx context.Context, v *view.CartView) {
	if l, ok := pickedLine(r.pressed, v); ok && r.pressed.ts != "" {
		r.update(ctx, r.pressed.ts, "✓ "+l.Title+" — "+l.Variant, pickedBlocks(l))
	}
}
