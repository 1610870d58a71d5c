package intent

import (
	"shopbot/engine/session"
	"testing"
)

// TestParseReviewQuestions: a review question names a product or points
// at a shown one, and says what it asks about in a review's words.
func TestParseReviewQuestions(t *testing.T) {
	shown := &session.State{Shown: []string{"A", "B"}, ShownCards: []session.ShownCard{
		{SKU: "A", Title: "Cragline Ridgeback Waterproof Trail Running Shoes"},
		{SKU: "B", Title: "Cragline Scree Lite Trail Running Shoes"},
	}}
	for _, c := range []struct {
		msg   string
		st    *session.State
		query string
		ref   Ref
		about string // a word About must have; "" for none at all
	}{
		{"do people complain about the battery of the Auralis Q7?", nil, "auralis q7", Ref{}, "battery"},
		{"what do reviewers say about the second one?", shown, "", Ref{Pos: 2}, ""},
		{"are the ridgeback ones true to size?", shown, "", Ref{Pos: 1}, "size"},
		{"do they run small?", shown, "", Ref{Focus: true}, "size"},
		{"reviews", nil, "", Ref{Focus: true}, ""},
		{"отзывы о втором", shown, "", Ref{Pos: 2}, ""},
		{"есть жалобы на шум?", nil, "", Ref{Focus: true}, "шум"},
		{"what do reviewers say about the strap of the first one?", shown, "", Ref{Pos: 1}, "strap"},
	} {
		in := Parse(c.msg, "", c.st)
		if in.Kind != IntentReviews || in.Query != c.query {
			t.Errorf("%q: %+v, want reviews of %q", c.msg, in, c.query)
			continue
		}
		if c.query == "" && (len(in.Refs) != 1 || in.Refs[0] != c.ref) {
			t.Errorf("%q: refs %+v, want %+v", c.msg, in.Refs, c.ref)
		}
		if c.about == "" && in.About != "" || c.about != "" && !ReviewMentions(c.about, in.About) {
			t.Errorf("%q: about %q, want it to have %q", c.msg, in.About, c.about)
		}
	}
	for _, msg := range []string{"headphones with 5 star customer reviews", "running shoes", "what is your return policy?", "compare the reviews of the first and second"} {
		if in := Parse(msg, "", shown); in.Kind == IntentReviews {
			t.Errorf("%q parsed as a review question: %+v", msg, in)
		}
	}
}

func TestReviewMentions(t *testing.T) {
	if !ReviewMentions("Battery life is nowhere near the listing.", "battery charge") ||
		!ReviewMentions("Размер в размер.", "size размер") ||
		ReviewMentions("Comfortable from day one.", "battery charge") {
		t.Error("ReviewMentions")
	}
}
