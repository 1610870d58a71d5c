package planner

// "Is it waterproof?" about the product in focus: answered from the
// product's own title, description and attributes (with the search's
// synonyms, so «водонепроницаемый» finds "Waterproof"), quoting the
// sentences that say it, instead of searching for the words.
import (
	"context"
	"sort"
	"strings"

	"shopbot/engine/planner/intent"
	"shopbot/engine/planner/quote"
	"shopbot/engine/view"
)

// aboutView is what planner.about_it reads.
type aboutView struct {
	Title, Asked, Quote string
	Yes                 bool
}

// maxAboutQuote bounds the sentences quoted.
const maxAboutQuote = 2

func (t *plannerTurn) aboutIt(ctx context.Context, in intent.Intent) error {
	res, ok, err := t.productCall(ctx, in, "get_product_details")
	if !ok || len(res.Cards) == 0 {
		return err
	}
	c := res.Cards[0]
	d := dataAs[struct {
		Title       string            `json:"title"`
		Description string            `json:"description"`
		Attributes  map[string]string `json:"attributes"`
	}](res)
	text := d.Description
	keys := make([]string, 0, len(d.Attributes))
	for k := range d.Attributes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		text += "\n" + strings.ReplaceAll(k, "_", " ") + ": " + d.Attributes[k]
	}
	units := queryUnits(in.Query)
	v := aboutView{Title: d.Title, Asked: in.Query, Yes: len(units) > 0}
	have := textStems(d.Title + "\n" + text)
	for _, u := range units {
		v.Yes = v.Yes && u.coveredBy(have)
	}
	var quoted []string
	for _, s := range quote.Sentences(text) {
		hs := textStems(s)
		for _, u := range units {
			if u.coveredBy(hs) {
				quoted = append(quoted, strings.TrimSpace(s))
				break
			}
		}
		if len(quoted) == maxAboutQuote {
			break
		}
	}
	if len(quoted) == 0 { // said only in the title, or not at all: what the description says
		for _, s := range quote.Sentences(d.Description) {
			if s = strings.TrimSpace(s); s != "" && len(quoted) < maxAboutQuote {
				quoted = append(quoted, s)
			}
		}
	}
	v.Quote = strings.Join(quoted, " ")
	t.s.State.Focus = c.SKU
	t.say(rAboutIt, v)
	if c.InStock {
		t.button("btn.add1", view.Action{Kind: view.ActAdd, SKU: c.SKU, Qty: 1})
	}
	t.button("btn.similar", view.Action{Kind: view.ActSimilar, SKU: c.SKU})
	return nil
}

// textStems are the stems of the words of text, as a card's are.
func textStems(text string) map[string]bool {
	return computeCardStems(view.Card{Title: text}, false)
}
