package analysis

import (
	"strings"

	"shopbot/catalog/clip"
)

// Query limits: a 10 KB paste is cut, not rejected; a query has at most
// 32 words (the embedded index keeps the words a document matched in one
// bit each).
const (
	MaxQueryBytes = 1000
	MaxSlots      = 32
)

// QueryWord is one word of a query or a synonym: Key is its stem (for a
// hyphenated compound, the stem of the joined word) and Surface the word
// as written, lower-cased; Parts holds the stems of a compound's parts
// when there are two or more.
type QueryWord struct {
	Key, Surface string
	Parts        []string
}

// QueryWords splits text, cut to MaxQueryBytes, into at most MaxSlots
// query words. Stop words are dropped unless the query has nothing else.
func QueryWords(text string) []QueryWord {
	var groups [][]string
	lex(Truncate(text, MaxQueryBytes), func(w word) {
		if w.joined && len(groups) > 0 {
			groups[len(groups)-1] = append(groups[len(groups)-1], w.text)
		} else {
			groups = append(groups, []string{w.text})
		}
	})
	var all, content []QueryWord
	for _, g := range groups {
		if len(content) == MaxSlots {
			break
		}
		w, ok := compound(g)
		if !ok {
			continue
		}
		all = append(all, w)
		if len(g) > 1 || !isStopWord(w.Surface) {
			content = append(content, w)
		}
	}
	if len(content) == 0 {
		content = all
	}
	return content[:min(len(content), MaxSlots)]
}

// compound makes one query word of hyphen-joined words.
func compound(g []string) (QueryWord, bool) {
	if len(g) == 1 {
		return QueryWord{Key: Stem(g[0]), Surface: g[0]}, indexable(g[0])
	}
	j := strings.Join(g, "")
	w := QueryWord{Key: Stem(j), Surface: j}
	for _, p := range g {
		if indexable(p) && !isStopWord(p) {
			w.Parts = append(w.Parts, Stem(p))
		}
	}
	if len(w.Parts) < 2 {
		w.Parts = nil
	}
	return w, true
}

// Truncate cuts s to at most n bytes on a rune boundary (clip.Bytes).
func Truncate(s string, n int) string { return clip.Bytes(s, n) }

// Alternative is one way a word of a query matches: a product containing
// all of Stems (terms as Terms makes them), worth Weight — 1 for the word
// itself, less for a synonym or a typo correction. The embedded index
// expands queries into alternatives (Index.Expand) against its catalog;
// the Weaviate backend turns them into its BM25 query.
type Alternative struct {
	Stems  []string
	Weight float32
}
