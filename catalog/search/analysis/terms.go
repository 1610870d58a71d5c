package analysis

import "strings"

// EachTerm calls fn for every indexable word of text with its stem, and
// once more for each compound joined up ("wi-fi" also yields "wifi", and
// "16gb" both "16", "gb" and "16gb"), so a query may spell it either way.
// compound reports the joined-up calls. stems memoizes the stemming (nil:
// none).
func EachTerm(text string, stems StemCache, fn func(word, stem string, compound bool)) {
	var parts []string
	flush := func() {
		if len(parts) > 1 {
			j := strings.Join(parts, "")
			fn(j, stems.Stem(j), true)
		}
		parts = parts[:0]
	}
	lex(text, func(w word) {
		if !w.joined {
			flush()
		}
		parts = append(parts, w.text)
		if indexable(w.text) {
			fn(w.text, stems.Stem(w.text), false)
		}
	})
	flush()
}

// Terms returns the index terms of text, in order, repeats kept: the
// stems of its words, and each hyphen or letter–digit compound joined up
// ("wi-fi" also yields "wifi"), exactly as the embedded index posts a
// field and the Weaviate backend stores one.
func Terms(text string) []string {
	var out []string
	EachTerm(text, nil, func(_, s string, _ bool) { out = append(out, s) })
	return out
}
