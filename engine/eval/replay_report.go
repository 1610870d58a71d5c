package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"shopbot/engine/outcome"
	"shopbot/engine/view"
)

// ReplayReport is a replay's turns, in conversation and turn order, and
// how many changed in each way.
type ReplayReport struct {
	Turns    []Replayed `json:"turns"`
	Total    int        `json:"total"`
	Changed  int        `json:"changed"`
	Tools    int        `json:"tools"`
	Products int        `json:"products"`
	Cart     int        `json:"cart"`
	Failed   int        `json:"failed"` // turns the replay could not run
}

func (r *ReplayReport) add(t Replayed) {
	r.Turns = append(r.Turns, t)
	r.Total++
	if t.Error != "" {
		r.Failed++
		return
	}
	if !t.Changes.Any() {
		return
	}
	r.Changed++
	for _, c := range []struct {
		on bool
		n  *int
	}{{t.Changes.Tools, &r.Tools}, {t.Changes.Products, &r.Products}, {t.Changes.Cart, &r.Cart}} {
		if c.on {
			*c.n++
		}
	}
}

// Summary is the report's last line.
func (r *ReplayReport) Summary() string {
	s := fmt.Sprintf("replayed %d turns: %d changed (tools %d, products %d, cart %d)", r.Total, r.Changed, r.Tools, r.Products, r.Cart)
	if r.Failed > 0 {
		s += fmt.Sprintf("; %d could not run", r.Failed)
	}
	return s
}

// Write prints a line per changed (or failed) turn, then the summary.
func (r *ReplayReport) Write(w io.Writer) error {
	var b strings.Builder
	for _, t := range r.Turns {
		if line := t.Line(); line != "" {
			b.WriteString(line + "\n")
		}
	}
	b.WriteString(r.Summary() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes the whole report as JSON.
func (r *ReplayReport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// Line says how a turn changed ("" when it did not): conversation 12
// turn 3: tools search_products{…} → …; products [A B] → [A C].
func (t *Replayed) Line() string {
	head := fmt.Sprintf("conversation %d turn %d: ", t.Conversation, t.Turn)
	if t.Error != "" {
		return head + "could not replay: " + t.Error
	}
	var parts []string
	c := t.Changes
	if c.Tools {
		parts = append(parts, "tools "+toolsText(t.Then.Tools)+" → "+toolsText(t.Now.Tools))
	}
	if c.Products {
		parts = append(parts, fmt.Sprintf("products %v → %v", t.Then.SKUs(), t.Now.SKUs()))
	}
	if c.Cart {
		parts = append(parts, "cart "+cartText(t.Then.Cart)+" → "+cartText(t.Now.Cart))
	}
	if c.Order {
		parts = append(parts, fmt.Sprintf("order placed %t → %t", t.Then.Order != "", t.Now.Order != ""))
	}
	if c.Reply {
		parts = append(parts, fmt.Sprintf("reply %q → %q", short(t.Then.Reply), short(t.Now.Reply)))
	}
	if len(parts) == 0 {
		return ""
	}
	return head + strings.Join(parts, "; ")
}

func toolsText(cs []outcome.ToolCall) string {
	if len(cs) == 0 {
		return "none"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Name + c.Arguments
	}
	return strings.Join(parts, " ")
}

// short keeps a reply to one readable line.
func short(s string) string { return view.Shorten(strings.Join(strings.Fields(s), " "), 80) }
