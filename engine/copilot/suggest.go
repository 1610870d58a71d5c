package copilot

import (
	"context"
	"errors"
	"strings"
	"time"

	"shopbot/catalog"
	"shopbot/engine/planner"
	"shopbot/engine/toolkit"
	"shopbot/engine/tools"
	"shopbot/engine/view"
)

// ErrNothingToSuggest is a conversation without a shopper's message to
// answer, or without a shopper.
var ErrNothingToSuggest = errors.New("engine: nothing to suggest: the shopper has not written yet")

// errSuggestionOnly refuses an effect during a suggestion.
var errSuggestionOnly = errors.New("engine: a suggested reply changes nothing")

// Suggestion is a drafted reply.
type Suggestion struct {
	Text string
	By   string // the model's name, or the offline planner's
}

// Dry are the tools and planner suggestions run with: the engine's
// tools over the same reads, every write refused.
type Dry struct {
	Tools   *toolkit.Toolbox
	Planner *planner.Planner
}

// noWrites is the write store of suggestions: each effect is refused.
type noWrites struct{}

func (noWrites) BeginEffect(context.Context) (toolkit.EffectTx, error) { return nil, errSuggestionOnly }

func (noWrites) TakeEffectNotice(context.Context, string, string, time.Time) (string, error) {
	return "", nil
}

// NewDry builds the dry tools over a copy of deps whose writes are
// refused and whose notices are dropped.
func NewDry(deps *tools.Deps, vocab planner.OptionVocab) (*Dry, error) {
	d := *deps
	d.Writes, d.Notify = noWrites{}, nil
	tb, err := toolkit.NewToolbox(tools.Tools(&d)...)
	if err != nil {
		return nil, err
	}
	return &Dry{Tools: tb, Planner: planner.New(tb).WithOptionVocab(vocab)}, nil
}

// LastAsk is the index in past of the shopper's latest message in words
// (buttons left out), or -1.
func LastAsk(past []catalog.Message) int {
	last := -1
	for i, m := range past {
		if m.Role == catalog.RoleUser && strings.TrimSpace(m.Content) != "" && !strings.HasPrefix(m.Content, "[button] ") {
			last = i
		}
	}
	return last
}

// Draft collects a suggestion from the answer's events: the final text
// and the products shown, written out as lines ("Title — price"), since
// the staff member sends text.
type Draft struct {
	done  string
	cards []string
}

// Done takes the answer's final text.
func (d *Draft) Done(text string) { d.done = text }

// Cards takes products the answer shows.
func (d *Draft) Cards(cards []view.Card) {
	for _, card := range cards {
		d.cards = append(d.cards, card.Title+" — "+card.PriceText)
	}
}

// Text is the drafted reply.
func (d *Draft) Text() string {
	t := strings.TrimSpace(d.done)
	if len(d.cards) > 0 {
		t += "\n" + strings.Join(d.cards, "\n")
	}
	return strings.TrimSpace(t)
}
