package web

import (
	"strings"

	"shopbot/engine/view"
)

// pickerEvent is a variant picker as the web client gets it: the
// product, what was chosen so far, the question and its values as
// buttons (Data is the action to post back: "opt|PARENT|0|2" narrows the
// picker, "add|VARIANT|1" adds the variant). Text is the whole picker in
// one plain line for clients that show text only.
type pickerEvent struct {
	Type      string             `json:"type"` // "picker"
	SKU       string             `json:"sku"`
	Title     string             `json:"title"`
	PriceText string             `json:"price_text"`
	ImageURL  string             `json:"image_url,omitempty"`
	Chosen    []view.OptionValue `json:"chosen"`
	Option    string             `json:"option"`
	Prompt    string             `json:"prompt"`
	Text      string             `json:"text"`
	Buttons   []view.Button      `json:"buttons"`
}

func pickerOf(p *view.Picker) *pickerEvent {
	ev := &pickerEvent{
		Type: "picker", SKU: p.SKU, Title: p.Title, PriceText: p.PriceText, ImageURL: p.ImageURL,
		Chosen: p.Chosen, Option: p.Option, Prompt: p.Prompt, Buttons: p.Values,
	}
	if ev.Chosen == nil {
		ev.Chosen = []view.OptionValue{}
	}
	if ev.Buttons == nil {
		ev.Buttons = []view.Button{}
	}
	parts := []string{p.Title + " · " + p.PriceText}
	for _, c := range p.Chosen {
		parts = append(parts, c.Name+": "+c.Value)
	}
	ev.Text = strings.Join(parts, " · ") + " — " + p.Prompt
	return ev
}
