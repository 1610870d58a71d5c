package intent

// Intent words: language, tokens, stems, and relaxing a query that found nothing.
import (
	"shopbot/catalog/search/analysis"
	"strconv"
	"strings"
	"unicode"
)

// RelaxQuery loosens a query for a second try: English plurals and Russian
// endings are cut (the search matches substrings), numbers go, and a few
// common Russian shopping words become their English catalog words.
func RelaxQuery(q string) string {
	var out, untranslated []string
	translated := false
	for _, w := range analysis.Tokenize(q) {
		if _, err := strconv.ParseFloat(w, 64); err == nil {
			continue
		}
		if en := glossaryOf(w); en != "" {
			out, translated = append(out, en), true
			continue
		}
		if isCyrillic(w) {
			untranslated = append(untranslated, stemWord(w))
			continue
		}
		out = append(out, stemWord(w))
	}
	if !translated { // nothing to English: keep the Russian stems
		out = append(out, untranslated...)
	}
	return queryOf(out)
}

// stem cuts a plural or case ending; the search matches substrings, so a
// shorter stem only widens the match.
func stemWord(w string) string {
	r := []rune(w)
	if isCyrillic(w) {
		if len(r) < 5 {
			return w
		}
		for _, end := range ruEndings {
			if e := []rune(end); len(r)-len(e) >= 4 && strings.HasSuffix(w, end) {
				return string(r[:len(r)-len(e)])
			}
		}
		return w
	}
	switch {
	case len(r) > 4 && strings.HasSuffix(w, "ies"):
		return string(r[:len(r)-3])
	case len(r) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return string(r[:len(r)-1])
	}
	return w
}

func isCyrillic(w string) bool {
	for _, r := range w {
		if unicode.Is(unicode.Cyrillic, r) {
			return true
		}
	}
	return false
}

// glossaryOf is the English catalog word for a Russian word: the
// planner's own short table's (vocab.go), else the shipped lexicon's.
func glossaryOf(w string) string {
	if !isCyrillic(w) {
		return ""
	}
	for _, g := range glossaryRU {
		if strings.HasPrefix(w, g.stem) {
			return g.en
		}
	}
	return lexiconEN(w)
}

// TitleHas reports whether title contains every word of name (stemmed).
func TitleHas(title, name string) bool {
	words := analysis.Tokenize(name)
	if len(words) == 0 {
		return false
	}
	title = strings.ReplaceAll(strings.ToLower(title), "ё", "е")
	for _, w := range words {
		if !strings.Contains(title, stemWord(w)) {
			return false
		}
	}
	return true
}
