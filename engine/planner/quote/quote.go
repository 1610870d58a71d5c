package quote

import (
	"slices"
	"strings"
	"unicode"

	"shopbot/catalog/search/analysis"
	"shopbot/engine/tools"
)

// MaxQuoted is how many sentences an answer from the shop's pages quotes.
const MaxQuoted = 2

// InLanguage keeps the passages in the shopper's language when there are
// any: an English shopper is not quoted the Russian half of a page.
func InLanguage(ps []tools.ShopPassage, ru bool) []tools.ShopPassage {
	var out []tools.ShopPassage
	for _, p := range ps {
		if MostlyCyrillic(p.Text) == ru {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return ps
	}
	return out
}

// Answering picks, from the passages of the best page (the
// passages best first), the sentences that answer: those sharing most
// word stems with asked (the shopper's words, twice the weight) and q
// (the question with the words a page would use), a sentence with a
// figure preferred, ranked passages breaking ties. It returns the passage
// the best sentence comes from and the sentences, in page order.
func Answering(ps []tools.ShopPassage, asked, q string) (tools.ShopPassage, []string) {
	if strings.TrimSpace(asked) == "" {
		asked = q // asked by another path (a delivery question): the query is the question
	}
	weights := map[string]int{}
	for _, w := range analysis.Tokenize(q) {
		if len([]rune(w)) >= 3 && !stopWord(w) {
			weights[stemOf(w)] = 1
		}
	}
	for _, w := range analysis.Tokenize(asked) {
		if len([]rune(w)) >= 3 && !stopWord(w) {
			weights[stemOf(w)] = 2
		}
	}
	type scored struct {
		passage, index, score int
		text                  string
	}
	var all []scored
	for pi, p := range ps {
		if p.Slug != ps[0].Slug {
			continue
		}
		for si, sent := range Sentences(p.Text) {
			// Each of the shopper's words in the sentence or its
			// heading counts 3, once; the page's words added to the
			// question count 1 in all; a figure (a window, a price, a
			// time) adds 1 to a sentence that matched.
			n, hint, seen := 0, 0, map[string]bool{}
			for _, w := range analysis.Tokenize(p.Heading + " " + sent) {
				for k, wt := range weights {
					if seen[k] || !stemMatch(w, k) {
						continue
					}
					seen[k] = true
					if wt == 2 {
						n += 3
					} else {
						hint = 1
					}
				}
			}
			if n += hint; n > 0 && strings.ContainsAny(sent, "0123456789") {
				n++
			}
			all = append(all, scored{pi, si, n, sent})
		}
	}
	if len(all) == 0 {
		return ps[0], []string{ps[0].Text}
	}
	slices.SortStableFunc(all, func(a, b scored) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return a.passage - b.passage
	})
	top := all[0]
	if top.score == 0 { // no word in common: the best passage as it is
		return ps[0], []string{ps[0].Text}
	}
	picked := []scored{top}
	for _, s := range all[1:] {
		if len(picked) == MaxQuoted || s.score == 0 {
			break
		}
		picked = append(picked, s)
	}
	slices.SortFunc(picked, func(a, b scored) int {
		if a.passage != b.passage {
			return a.passage - b.passage
		}
		return a.index - b.index
	})
	out := make([]string, len(picked))
	for i, s := range picked {
		out[i] = s.text
	}
	return ps[top.passage], out
}

// stemMatch reports whether word w and stem k are one word: w begins
// with k, or k with w's stem ("ship" and "shipping").
func stemMatch(w, k string) bool {
	return strings.HasPrefix(w, k) || len([]rune(w)) >= 4 && strings.HasPrefix(k, stemOf(w))
}

// stemOf cuts a word to a short stem so "returned" meets "return" and
// «вернуть» meets «вернём».
func stemOf(w string) string {
	r := []rune(w)
	if len(r) > 5 {
		r = r[:5]
	}
	return string(r)
}

func stopWord(w string) bool {
	switch w {
	case "the", "and", "can", "you", "your", "what", "how", "does", "are", "for", "with", "this", "that", "if", "its",
		"will", "get", "when", "where", "work", "works", "have", "has", "happens", "there", "about", "then", "after",
		"как", "что", "для", "или", "ваш", "вас", "это", "если", "можно", "когда", "где", "будет", "есть", "мне", "нам":
		return true
	}
	return false
}

// Sentences splits a passage into sentences at ". ", "! ", "? " and line
// breaks.
func Sentences(text string) []string {
	var out []string
	start := 0
	rs := []rune(text)
	for i, r := range rs {
		end := r == '\n' || (r == '.' || r == '!' || r == '?') && (i+1 == len(rs) || rs[i+1] == ' ' || rs[i+1] == '\n')
		if end {
			if s := strings.TrimSpace(string(rs[start : i+1])); len(s) > 1 {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(string(rs[start:])); s != "" {
		out = append(out, s)
	}
	return out
}

// MostlyCyrillic reports whether text is mostly Cyrillic: a page's Russian
// section is not quoted beside an English answer, nor the reverse.
func MostlyCyrillic(text string) bool {
	var cyr, other int
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Cyrillic, r):
			cyr++
		case unicode.IsLetter(r):
			other++
		}
	}
	return cyr > other
}
