package analysis

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
	"github.com/kljensen/snowball/russian"
)

// maxWordBytes bounds a word; longer runs of letters (base64, URLs without
// separators) are not words anyone searches for and are skipped.
const maxWordBytes = 80

// word is one lower-cased run of letters and digits. joined reports that it
// follows the previous word after a single hyphen, as in "wi-fi", "t-shirt".
type word struct {
	text   string
	joined bool
}

// lex splits text into words, lower-cased, with "ё" folded to "е". The
// words are substrings of one lower-cased copy of text. A change between
// letters and digits also splits a word, joined: "16gb" is "16" + "gb",
// found by "16 GB" as well.
func lex(text string, fn func(w word)) {
	text = strings.ToLower(text)
	if strings.Contains(text, "ё") {
		text = strings.ReplaceAll(text, "ё", "е")
	}
	start, hyphen, joined, digits := -1, false, false, false
	for i, r := range text {
		if !isWordRune(r) {
			if start >= 0 {
				emit(text[start:i], joined, fn)
			}
			hyphen = start >= 0 && isHyphen(r)
			start = -1
			continue
		}
		d := isDigit(r)
		switch {
		case start < 0:
			start, joined = i, hyphen
		case d != digits:
			emit(text[start:i], joined, fn)
			start, joined = i, true
		}
		digits, hyphen = d, false
	}
	if start >= 0 {
		emit(text[start:], joined, fn)
	}
}

func emit(s string, joined bool, fn func(w word)) {
	if len(s) <= maxWordBytes {
		fn(word{text: s, joined: joined})
	}
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

func isDigit(r rune) bool {
	return '0' <= r && r <= '9' || r >= utf8.RuneSelf && unicode.IsDigit(r)
}

func isHyphen(r rune) bool { return r == '-' || r == '‐' || r == '‑' }

// indexable reports whether a word is worth a term: single letters ("t" of
// "t-shirt", "s" of "men's") are not; single digits are.
func indexable(w string) bool {
	r, n := utf8.DecodeRuneInString(w)
	return n < len(w) || unicode.IsDigit(r)
}

// isStopWord reports English and Russian function words ("the", "for", "для").
func isStopWord(w string) bool {
	return english.IsStopWord(w) || russian.IsStopWord(w)
}
