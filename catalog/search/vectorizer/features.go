package vectorizer

import (
	"unicode"
	"unicode/utf8"
)

// Local's features. A word is a run of letters and digits (of any script),
// lower-cased, with "ё" folded to "е". It contributes itself, weighted
// wordWeight, and each of its character n-grams of minGram to maxGram
// runes, weighted 1, taken from the word padded with a start and an end
// mark: "шуба" gives "<шу", "шуб", "уба", "ба>", "<шуб", … "<шуба", "шуба>".
// The marks make a word's beginning and end count extra, and make a short
// word like "tv" still yield n-grams.
const (
	minGram = 3
	maxGram = 5
	// wordWeight lets a whole word count like a few of its n-grams: an
	// exact word beats a near one, while one typo still leaves most of
	// the n-grams in common.
	wordWeight = 2
	// maxWordRunes bounds a word; longer runs (hashes, base64) are not
	// words anyone searches for and give no features.
	maxWordRunes = 40
)

// The marks padding a word: code points no word contains.
const (
	markStart = 0x02
	markEnd   = 0x03
)

// Feature kinds seed the hash, so the word "abc" and the n-gram "abc" are
// different features.
const (
	kindWord = 1
	kindGram = 2
)

// features extracts the features of texts; it keeps a buffer between calls
// and is not safe for concurrent use.
type features struct {
	word []rune // markStart, the word's runes, then markEnd while hashing
}

// each calls fn with the hash and weight of every feature occurrence in
// text.
func (f *features) each(text string, fn func(h uint64, w float32)) {
	f.word = append(f.word[:0], markStart)
	for i := 0; i < len(text); {
		r, n := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(text[i:])
		}
		i += n
		if isWordRune(r) {
			f.word = append(f.word, fold(r))
			continue
		}
		f.flush(fn)
	}
	f.flush(fn)
}

// flush emits the features of the word collected so far and starts anew.
func (f *features) flush(fn func(h uint64, w float32)) {
	if w := f.word[1:]; len(w) > 0 && len(w) <= maxWordRunes && (len(w) > 1 || isDigit(w[0])) {
		fn(hashRunes(kindWord, w), wordWeight)
		f.word = append(f.word, markEnd)
		for n := minGram; n <= maxGram; n++ {
			for i := 0; i+n <= len(f.word); i++ {
				fn(hashRunes(kindGram, f.word[i:i+n]), 1)
			}
		}
	}
	f.word = f.word[:1]
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

func isDigit(r rune) bool { return '0' <= r && r <= '9' || r >= utf8.RuneSelf && unicode.IsDigit(r) }

// fold lower-cases r and folds "ё" to "е", as people type either.
func fold(r rune) rune {
	switch {
	case 'A' <= r && r <= 'Z':
		return r + 'a' - 'A'
	case r < utf8.RuneSelf:
		return r
	case r == 'ё' || r == 'Ё':
		return 'е'
	}
	return unicode.ToLower(r)
}

// hashRunes is FNV-1a over the code points of rs, seeded by kind and
// finished with a 64-bit mixer so every bit of the result is usable (the
// coordinate, the sign and the idf bucket take different bits). It is part
// of the vector format: changing it changes every vector.
func hashRunes(kind uint64, rs []rune) uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	h := uint64(offset) ^ kind
	for _, r := range rs {
		h ^= uint64(r)
		h *= prime
	}
	return mix64(h)
}

// mix64 is the MurmurHash3 finalizer.
func mix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb53a185ec8e3
	h ^= h >> 33
	return h
}
