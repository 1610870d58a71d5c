package analysis

import (
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"
	"github.com/kljensen/snowball/russian"
)

// Stem reduces a lower-cased word to its index term: Snowball English for
// Latin words, Snowball Russian for Cyrillic ones; words with digits and
// other scripts are kept as they are.
func Stem(w string) string {
	switch script(w) {
	case latin:
		return english.Stem(w, true)
	case cyrillic:
		return fleetingVowel(russian.Stem(w, true))
	}
	return w
}

type scriptKind uint8

const (
	other scriptKind = iota
	latin
	cyrillic
)

func script(w string) scriptKind {
	kind := other
	for _, r := range w {
		switch {
		case '0' <= r && r <= '9':
			return other
		case 'a' <= r && r <= 'z':
			kind = latin
		case unicode.Is(unicode.Cyrillic, r):
			return cyrillic
		}
	}
	return kind
}

// fleetingVowel drops the vowel Russian inserts before a final "к" in some
// forms, so "кроссовок" and "курток" (genitive plural) meet "кроссовки" and
// "куртки" at "кроссовк", "куртк". Snowball leaves this to the reader.
func fleetingVowel(s string) string {
	rs := []rune(s)
	n := len(rs)
	if n < 5 || rs[n-1] != 'к' || (rs[n-2] != 'о' && rs[n-2] != 'е') || isRussianVowel(rs[n-3]) {
		return s
	}
	return string(rs[:n-2]) + "к"
}

func isRussianVowel(r rune) bool { return strings.ContainsRune("аеиоуыэюяё", r) }

// StemCache memoizes Stem for an index writer, which sees the same few
// thousand words millions of times during a rebuild. It is not safe for
// concurrent use; a nil StemCache stems without memoizing.
type StemCache map[string]string

const maxStemCache = 1 << 20

// Stem is Stem(w), remembered.
func (c StemCache) Stem(w string) string {
	if s, ok := c[w]; ok {
		return s
	}
	s := Stem(w)
	if c != nil && len(c) < maxStemCache {
		// w may be a slice of a whole description: keep copies only.
		s = strings.Clone(s)
		c[strings.Clone(w)] = s
	}
	return s
}
