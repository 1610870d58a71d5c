package analysis

import (
	"strings"
	"unicode"
)

// maxTokens bounds the words Tokenize returns.
const maxTokens = 80

// DetectLang: Cyrillic means Russian; Latin letters mean English, except a
// contact detail typed in a Russian conversation; no letters at all follow
// the platform locale.
func DetectLang(text, locale string, capture bool) string {
	latin := false
	for _, r := range text {
		if unicode.Is(unicode.Cyrillic, r) {
			return "ru"
		}
		latin = latin || unicode.IsLetter(r)
	}
	ru := strings.HasPrefix(strings.ToLower(locale), "ru")
	if ru && (!latin || capture) {
		return "ru"
	}
	return "en"
}

// Tokenize lower-cases text and splits it into words, keeping the marks
// prices and order numbers need ($, ₽, -, ., ,).
func Tokenize(text string) []string {
	text = strings.NewReplacer("ё", "е", "Ё", "е", "’", "'", "`", "'", "×", "x", "–", "-", "—", "-").Replace(strings.ToLower(text))
	fields := strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("$₽€£#№.,-'+<>", r)
	})
	var out []string
	for _, f := range fields {
		if f = strings.Trim(f, ".,-'+"); f != "" && len(out) < maxTokens {
			out = append(out, f)
		}
	}
	return out
}

// CleanText turns control characters (newlines included) into spaces and
// collapses runs of spaces: contact details and info questions are read as plain text.
func CleanText(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
}
