package analysis

import "unicode"

// Script is the alphabet a text is mostly written in, as far as ranking
// cares: a query in English should list English titles before Russian ones
// of the same relevance (the demo shop sells both), and the other way round.
type Script uint8

const (
	ScriptNone     Script = iota // no letters (a number, an SKU of digits)
	ScriptLatin                  // mostly Latin letters
	ScriptCyrillic               // mostly Cyrillic letters
)

// ScriptOf returns the script most of s's letters are in; letters of other
// scripts do not count, and a tie is ScriptNone.
func ScriptOf(s string) Script {
	latin, cyrillic := 0, 0
	for _, r := range s {
		switch {
		case r < unicode.MaxASCII:
			if r|0x20 >= 'a' && r|0x20 <= 'z' {
				latin++
			}
		case unicode.Is(unicode.Cyrillic, r):
			cyrillic++
		case unicode.Is(unicode.Latin, r):
			latin++
		}
	}
	switch {
	case latin > cyrillic:
		return ScriptLatin
	case cyrillic > latin:
		return ScriptCyrillic
	}
	return ScriptNone
}

// Mismatch reports whether a text in script t reads in another language
// than a query in script q: both have letters, and not the same ones.
func (q Script) Mismatch(t Script) bool { return q != ScriptNone && t != ScriptNone && q != t }
