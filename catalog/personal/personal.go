package personal

import (
	"regexp"
	"sort"
	"strings"
)

// Kind names a contact detail.
type Kind string

const (
	Phone   Kind = "phone"
	Email   Kind = "email"
	Address Kind = "address"
)

// Span is one contact detail found in a text: text[Start:End].
type Span struct {
	Kind       Kind
	Start, End int
}

// Phone numbers: an optional +, then digits grouped by spaces, dashes,
// dots or parentheses; 7 to 15 digits (E.164) make a number.
var phoneRe = regexp.MustCompile(`\+?\(?\d[\d ().-]*\d`)

const minPhoneDigits, maxPhoneDigits = 7, 15

var emailRe = regexp.MustCompile(`[\p{L}\d._%+-]+@[\p{L}\d-]+(?:\.[\p{L}\d-]+)*\.\p{L}{2,}`)

// Street addresses: a house number before a street word ("1 Main St",
// "221B Baker Street"), or a Russian street word before a name and
// number ("ул. Ленина 10", "Невский проспект 28"), or a house or flat
// number ("д. 5", "кв. 12").
var addressRes = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\b\d{1,6}[a-z]?\s+(?:[\p{L}'.-]+\s+){0,3}(?:st|street|ave|avenue|rd|road|ln|lane|blvd|boulevard|dr|drive|way|ct|court|pl|place|terrace|ter|sq|square|hwy|highway|pkwy|parkway|cres|crescent|close|row|walk|alley|plaza)\b\.?`),
	regexp.MustCompile(`(?i)(?:^|[^\p{L}])((?:ул|улица|пр-т|пр|проспект|пер|переулок|бульвар|б-р|шоссе|наб|набережная|пл|площадь|мкр|микрорайон)\.?\s+[\p{L}-]+(?:\s+[\p{L}-]+)?(?:,?\s*(?:д\.?|дом)?\s*\d+[\p{L}]?)?)`),
	regexp.MustCompile(`(?i)(?:^|[^\p{L}])([\p{L}-]+\s+(?:проспект|улица|переулок|шоссе|бульвар|набережная)\s+\d+[\p{L}]?)`),
	regexp.MustCompile(`(?i)(?:^|[^\p{L}])((?:д|дом|кв|квартира|корп|корпус|стр)\.?\s*\d+[\p{L}]?)`),
}

// Find returns the contact details of text, in order, without overlaps.
func Find(text string) []Span {
	// Every detail has a digit, an @ or (a Russian street) Cyrillic
	// letters: most messages need no regular expression at all.
	hasDigit, hasAt, hasCyrillic := false, false, false
	for _, r := range text {
		hasDigit = hasDigit || r >= '0' && r <= '9'
		hasAt = hasAt || r == '@'
		hasCyrillic = hasCyrillic || r >= 0x400 && r <= 0x4ff
	}
	if !hasDigit && !hasAt && !hasCyrillic {
		return nil
	}
	var spans []Span
	if hasAt {
		for _, loc := range emailRe.FindAllStringIndex(text, -1) {
			spans = append(spans, Span{Email, loc[0], loc[1]})
		}
	}
	for i, re := range addressRes {
		if i == 0 && !hasDigit || i > 0 && !hasCyrillic {
			continue
		}
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			start, end := m[0], m[1]
			if len(m) >= 4 && m[2] >= 0 { // the group skips the boundary before it
				start, end = m[2], m[3]
			}
			spans = append(spans, Span{Address, start, end})
		}
	}
	if !hasDigit {
		return dedupe(spans)
	}
	for _, loc := range phoneRe.FindAllStringIndex(text, -1) {
		start, end := loc[0], cutBefore(spans, text, loc[0], loc[1])
		if d := digits(text[start:end]); d >= minPhoneDigits && d <= maxPhoneDigits && !partOfWord(text, start) {
			spans = append(spans, Span{Phone, start, end})
		}
	}
	return dedupe(spans)
}

// dedupe orders spans and drops those overlapping an earlier-found one
// (an e-mail's digits are no phone; an address's number is no phone).
func dedupe(spans []Span) []Span {
	var kept []Span
	for _, s := range spans {
		overlaps := false
		for _, k := range kept {
			if s.Start < k.End && k.Start < s.End {
				overlaps = true
				break
			}
		}
		if !overlaps {
			kept = append(kept, s)
		}
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].Start < kept[j].Start })
	return kept
}

// cutBefore ends a phone number match where an address found inside it
// begins: in "+1 303 555 0188 742 Evergreen Terrace" the house number is
// not the phone's.
func cutBefore(spans []Span, text string, start, end int) int {
	for _, s := range spans {
		if s.Kind == Address && s.Start > start && s.Start < end {
			end = s.Start
		}
	}
	for end > start && strings.ContainsRune(" ().-", rune(text[end-1])) && text[end-1] != ')' {
		end--
	}
	return end
}

// partOfWord reports whether the digits at i continue a word ("SB-1234…",
// an order number), which makes them no phone number.
func partOfWord(text string, i int) bool {
	if i == 0 {
		return false
	}
	c := text[i-1]
	return c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func digits(s string) int {
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n++
		}
	}
	return n
}

// Contains reports whether text holds a phone number, an e-mail address
// or a street address.
func Contains(text string) bool { return len(Find(text)) > 0 }

// Mask replaces every contact detail of text with its kind in brackets:
// "call +1 555 0100" becomes "call [phone]".
func Mask(text string) string {
	spans := Find(text)
	if len(spans) == 0 {
		return text
	}
	var b strings.Builder
	at := 0
	for _, s := range spans {
		b.WriteString(text[at:s.Start])
		b.WriteString("[" + string(s.Kind) + "]")
		at = s.End
	}
	b.WriteString(text[at:])
	return b.String()
}
