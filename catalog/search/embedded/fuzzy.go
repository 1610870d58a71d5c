package embedded

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// vocab is the typo vocabulary: every letters-only word of 3–40 runes seen
// in an active product, the term it stems to, and a trigram index over
// the words. A misspelt query word is compared, with Damerau-Levenshtein
// distance, only against words sharing enough trigrams with it.
type vocab struct {
	ids   map[string]int32 // word → word id
	words []string
	runes []uint8 // rune length of each word
	terms []int32 // term id of each word
	stems []string
	grams map[uint64][]int32
}

const (
	minVocabRunes = 3
	maxVocabRunes = 40
)

func newVocab() *vocab { return &vocab{ids: map[string]int32{}, grams: map[uint64][]int32{}} }

// add records that word stems to stem, whose id is term.
func (v *vocab) add(word, stem string, term int32) {
	if _, ok := v.ids[word]; ok {
		return
	}
	n := utf8.RuneCountInString(word)
	if n < minVocabRunes || n > maxVocabRunes || strings.IndexFunc(word, notLetter) >= 0 {
		return
	}
	word = strings.Clone(word)
	id := int32(len(v.words))
	v.ids[word] = id
	v.words = append(v.words, word)
	v.runes = append(v.runes, uint8(n))
	v.terms = append(v.terms, term)
	v.stems = append(v.stems, stem)
	for _, g := range trigrams([]rune(word), nil) {
		v.grams[g] = append(v.grams[g], id)
	}
}

func notLetter(r rune) bool { return !unicode.IsLetter(r) }

// typoDistance is how many edits a query word of n runes may contain.
func typoDistance(n int) int {
	switch {
	case n >= 7:
		return 2
	case n >= 4:
		return 1
	}
	return 0
}

// wordMatch is a vocabulary word near a query word.
type wordMatch struct {
	term int32
	stem string
	dist int
}

// near returns the vocabulary words within Damerau-Levenshtein distance d
// of q. One edit destroys at most four of q's trigrams (a transposition
// four, any other edit three), so a word within distance d shares at least
// len(grams(q)) - 4d of them: only words reaching that count are compared.
func (v *vocab) near(q []rune, d int, s *scratch) []wordMatch {
	grams := trigrams(q, s.grams[:0])
	s.grams = grams
	need := max(1, len(grams)-4*d)
	counts := s.wordCounts(len(v.words))
	touched := s.words[:0]
	for _, g := range grams {
		for _, w := range v.grams[g] {
			if counts[w] == 0 {
				touched = append(touched, w)
			}
			counts[w]++
		}
	}
	var out []wordMatch
	for _, w := range touched {
		if int(counts[w]) >= need && absDiff(int(v.runes[w]), len(q)) <= d {
			s.runes = s.runes[:0]
			for _, r := range v.words[w] {
				s.runes = append(s.runes, r)
			}
			if dist := osaDistance(q, s.runes, d, s); dist <= d {
				out = append(out, wordMatch{term: v.terms[w], stem: v.stems[w], dist: dist})
			}
		}
		counts[w] = 0
	}
	s.words = touched
	return out
}

func absDiff(a, b int) int {
	if a > b {
		return a - b
	}
	return b - a
}

// Padding runes mark the ends of a word in its trigrams.
const (
	padStart = 1
	padEnd   = 2
)

// trigrams appends the distinct trigrams of "^^word$$" to dst.
func trigrams(w []rune, dst []uint64) []uint64 {
	at := func(i int) uint64 {
		switch {
		case i < 2:
			return padStart
		case i >= len(w)+2:
			return padEnd
		}
		return uint64(w[i-2])
	}
	for i := 0; i < len(w)+2; i++ {
		g := at(i)<<42 | at(i+1)<<21 | at(i+2)
		if !containsGram(dst, g) {
			dst = append(dst, g)
		}
	}
	return dst
}

func containsGram(gs []uint64, g uint64) bool {
	for _, x := range gs {
		if x == g {
			return true
		}
	}
	return false
}

// osaDistance is the optimal-string-alignment Damerau-Levenshtein distance
// of a and b (insertions, deletions, substitutions, adjacent
// transpositions), or max+1 once it must exceed max.
func osaDistance(a, b []rune, maxDist int, s *scratch) int {
	n := len(b) + 1
	rows := s.rows(3 * n)
	prev2, prev, cur := rows[:n], rows[n:2*n], rows[2*n:]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := i
		for j := 1; j < n; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			c := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				c = min(c, prev2[j-2]+1)
			}
			cur[j] = c
			best = min(best, c)
		}
		if best > maxDist {
			return maxDist + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[n-1], maxDist+1)
}
