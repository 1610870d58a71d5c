package intent

// The shipped retail lexicon as the planner's Russian→English product
// words: a Russian word of a lexicon group becomes the group's first
// English term, so «электрочайник» is retried as "kettle".
import (
	"sync"
	"unicode"

	"shopbot/catalog/search/analysis"
)

var (
	lexOnce sync.Once
	lexEN   map[string]string // stem of a one-word Russian term → English term
)

// lexiconEN returns the English term the lexicon gives for the Russian
// word w, or "".
func lexiconEN(w string) string {
	lexOnce.Do(func() { lexEN = buildLexiconEN(analysis.SearchSynonyms()) })
	ws := analysis.QueryWords(w)
	if len(ws) != 1 {
		return ""
	}
	return lexEN[ws[0].Key]
}

func buildLexiconEN(groups [][]string) map[string]string {
	out := map[string]string{}
	for _, g := range groups {
		en := ""
		for _, term := range g {
			if isLatin(term) {
				en = term
				break
			}
		}
		if en == "" {
			continue
		}
		for _, term := range g {
			ws := analysis.QueryWords(term)
			if len(ws) != 1 || !isCyrillic(term) {
				continue
			}
			if _, seen := out[ws[0].Key]; !seen { // the first group wins
				out[ws[0].Key] = en
			}
		}
	}
	return out
}

// isLatin reports whether s has letters and all of them are Latin.
func isLatin(s string) bool {
	letters := false
	for _, r := range s {
		if unicode.IsLetter(r) {
			if !unicode.Is(unicode.Latin, r) {
				return false
			}
			letters = true
		}
	}
	return letters
}
