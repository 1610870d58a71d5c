package planner

import (
	"context"
	"fmt"
	"shopbot/engine/toolkit"
	"strings"
	"unicode"

	"shopbot/engine/planner/intent"
	"shopbot/engine/tools"
	"shopbot/engine/view"
)

// The reviews skill: "do people complain about the battery of the Auralis
// Q7?", "what do reviewers say about the second one?", "are the trail
// runners true to size?". The product is a shown one (a reference,
// resolved as every other) or found by its name; a question about no
// product it can identify asks which. The answer is the rating summary
// (get_reviews_summary) and, when the question is about one thing, the
// reviews that mention it (search_reviews), quoted with rating and
// author; when none does, it says so rather than quoting what the search
// ranked near by meaning alone.

// reviewQuotes is how many matching reviews an answer quotes.
const reviewQuotes = 3

// reviewsView is get_reviews_summary's data as the template reads it.
type reviewsView struct {
	Title      string  `json:"title"`
	Rating     float64 `json:"rating"`
	Count      int     `json:"count"`
	Stored     int     `json:"stored_reviews"`
	Highlights []struct {
		Author string `json:"author"`
		Rating int    `json:"rating"`
		Text   string `json:"text"`
	} `json:"highlights"`
}

func (t *plannerTurn) reviews(ctx context.Context, in intent.Intent) error {
	sku, about, ok, err := t.reviewedProduct(ctx, in)
	if !ok || err != nil {
		return err
	}
	in.About = strings.TrimSpace(in.About + " " + about)
	res, err := t.call(ctx, "get_reviews_summary", map[string]string{"sku": sku})
	if err != nil {
		return t.fail(err)
	}
	sum := dataAs[reviewsView](res)
	if in.About == "" {
		t.say(rReviews, sum)
		return nil
	}
	found, err := t.call(ctx, "search_reviews", map[string]string{"query": clipWords(in.About, 200), "sku": sku})
	if err != nil {
		return t.fail(err)
	}
	var quoted []tools.ReviewPassage
	for _, r := range dataAs[tools.ReviewSearch](found).Reviews {
		if len(quoted) < reviewQuotes && intent.ReviewMentions(r.Title+" "+r.Text, in.About) {
			quoted = append(quoted, r)
		}
	}
	t.sayText(t.reviewAnswer(sum, quoted, aspectLabel(in.About, t.lang)))
	return nil
}

// reviewedProduct is the product a review question is about: the one
// referred to, or the one its name finds. Words of the name that no
// title has ("the armless task chair squeaking") are what is asked about
// (about); when the words name no product at all, they are asked of the
// product in focus ("any complaints about leaking?"). When the name fits
// several, they are listed and the shopper is asked which (ok is false).
func (t *plannerTurn) reviewedProduct(ctx context.Context, in intent.Intent) (sku, about string, ok bool, err error) {
	st := t.s.State
	focus := st.Focus != "" || len(st.Shown) == 1
	if in.Query == "" {
		r := firstRef(in)
		if r.Focus && !focus {
			t.sayText(reviewText.get(t.lang).which)
			return "", "", false, nil
		}
		sku, ok = t.resolve(r)
		return sku, "", ok, nil
	}
	res, q, err := t.find(ctx, plannedSearch{Query: in.Query, Limit: listLimit})
	if err != nil {
		return "", "", false, t.fail(err)
	}
	t.plan.Results = t.plan.Results[:len(t.plan.Results)-min(1, len(t.plan.Results))] // the search is not the answer
	kept, exact := bestCovered(res.Cards, q)
	switch {
	case exact && len(kept) == 1:
		sku = kept[0].SKU
	case exact && soleMatch(kept, q) != "":
		sku = soleMatch(kept, q)
	case exact:
		// Several fit the name: show them, so "the second one" can follow.
		t.plan.Results = append(t.plan.Results, toolkit.Result{Cards: kept})
		t.remember(plannedSearch{Query: q, Limit: listLimit}, len(kept), len(kept))
		t.keepShown(kept)
		t.say(rFound, listView{Cards: kept, Total: len(kept), Query: q})
		t.sayText(reviewText.get(t.lang).several)
		t.cardButtons(kept)
		return "", "", false, nil
	default:
		if sku, about = partlyNamed(res.Cards, in.Query); sku == "" && focus {
			sku, _ = t.resolve(intent.Ref{Focus: true})
			about = in.Query
		}
		if sku == "" {
			t.sayText(fmt.Sprintf(reviewText.get(t.lang).unknown, in.Query))
			return "", "", false, nil
		}
	}
	st.Focus = sku
	return sku, about, true, nil
}

// partlyNamed is the card whose title has the most words of name (at
// least two), and the words its title lacks.
func partlyNamed(cards []view.Card, name string) (sku, rest string) {
	words := strings.Fields(name)
	best := 0
	for _, c := range cards {
		var lacks []string
		for _, w := range words {
			if !intent.TitleHas(c.Title+" "+c.Brand, w) {
				lacks = append(lacks, w)
			}
		}
		has := len(words) - len(lacks)
		if has > best && has >= 2 {
			best, sku, rest = has, c.SKU, strings.Join(lacks, " ")
		}
	}
	return sku, rest
}

// reviewAnswer words the summary and the reviews quoted (none: no review
// mentions what was asked).
func (t *plannerTurn) reviewAnswer(sum reviewsView, quoted []tools.ReviewPassage, about string) string {
	w := reviewText.get(t.lang)
	var b strings.Builder
	if sum.Count > 0 {
		fmt.Fprintf(&b, w.rated, sum.Title, sum.Rating, sum.Count)
	} else {
		fmt.Fprintf(&b, w.unrated, sum.Title)
	}
	if len(quoted) == 0 {
		b.WriteString(" " + fmt.Sprintf(w.none, about))
		return b.String()
	}
	b.WriteString(" " + fmt.Sprintf(w.mention, about))
	for _, r := range quoted {
		text := r.Text
		if r.Title != "" {
			text = r.Title + ". " + text
		}
		fmt.Fprintf(&b, "\n★%d %s: %s", r.Rating, r.Author, fmt.Sprintf(w.quote, text))
	}
	return b.String()
}

// aspectLabel names what was asked about in the shopper's language: the
// first word of About in that script (About lists English and Russian
// words for one topic).
func aspectLabel(about, lang string) string {
	words := strings.Fields(about)
	for _, w := range words {
		if isCyrillicWord(w) == (lang == "ru") {
			return w
		}
	}
	if len(words) == 0 {
		return ""
	}
	return words[0]
}

func isCyrillicWord(w string) bool {
	for _, r := range w {
		if unicode.IsLetter(r) {
			return unicode.Is(unicode.Cyrillic, r)
		}
	}
	return false
}

// clipWords bounds s to n bytes at a word boundary.
func clipWords(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexByte(s[:n], ' '); i > 0 {
		return s[:i]
	}
	return s[:n]
}

// reviewText is the skill's wording per language (English is the default).
var reviewText = langTable[struct{ rated, unrated, mention, none, quote, which, several, unknown string }]{
	"en": {
		rated:   "%s: rated %.1f/5 by %d shoppers.",
		unrated: "%s: no ratings yet.",
		mention: "What reviewers say about %s:",
		none:    "No review mentions %s.",
		quote:   "“%s”",
		which:   `Which product's reviews would you like? Tell me its name, or after a search say "reviews of the first one".`,
		several: `Which one's reviews would you like? Say "reviews of the first one", "the second"…`,
		unknown: `I couldn't find "%s" in our shop. Which product's reviews would you like?`,
	},
	"ru": {
		rated:   "%s: рейтинг %.1f/5, оценок: %d.",
		unrated: "%s: оценок пока нет.",
		mention: "Что пишут в отзывах про «%s»:",
		none:    "Ни в одном отзыве не упоминается «%s».",
		quote:   "«%s»",
		which:   "Отзывы о каком товаре? Назовите его или после поиска скажите «отзывы о первом».",
		several: "Отзывы о каком из них? Скажите «отзывы о первом», «о втором»…",
		unknown: "Не нашёл «%s» в магазине. Отзывы о каком товаре показать?",
	},
}
