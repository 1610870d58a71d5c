package intent

// Contact details at checkout: every detail one message gives (name,
// phone, address, in any order; an e-mail is recognized and left out, as
// the order has no field for it).
import (
	"regexp"
	"strings"
	"unicode"

	"shopbot/catalog/personal"
)

// contactLabels are lead-ins shoppers put before a detail ("phone:",
// "меня зовут"); they are cut, the detail is kept.
var contactLabels = regexp.MustCompile(`(?i)(?:^|[\s,;])(my name is|my phone number is|my phone is|my number is|my address is|my email is|меня зовут|мой телефон|мой номер|мой адрес|адрес доставки|name|phone number|phone|tel|mobile|address|ship to|deliver to|e-mail|email|имя|телефон|тел|адрес|почта)\s*[:\-]?\s`)

// contactSeparators split a message into its parts.
const contactSeparators = ",;\n"

// parseContact reads the contact details of a message: the fields it
// found, by checkout field name. needName tells whether a name is still
// wanted: a message that starts with an address and ends with capitalized
// words ("1 Main St, Springfield") names a city, not a person, once the
// name is known.
func parseContact(raw string, needName bool) map[string]string {
	text := " " + raw + " "
	text = contactLabels.ReplaceAllString(text, ", ")
	out := map[string]string{}
	spans := personal.Find(text)
	var b strings.Builder
	at, addrStart := 0, -1
	for _, s := range spans {
		b.WriteString(text[at:s.Start])
		switch s.Kind {
		case personal.Phone:
			if out["phone"] == "" {
				out["phone"] = strings.TrimSpace(text[s.Start:s.End])
			}
			b.WriteString(",")
		case personal.Email:
			b.WriteString(",")
		case personal.Address:
			if addrStart < 0 {
				addrStart = b.Len()
			}
			b.WriteString(text[s.Start:s.End])
		}
		at = s.End
	}
	b.WriteString(text[at:])
	rest := b.String()
	var parts []string
	if addrStart >= 0 {
		parts = splitParts(rest[:addrStart])
		name, before := nameOf(parts, true, needName)
		if name != "" {
			out["name"] = name
		}
		tail := splitParts(rest[addrStart:])
		if needName && name == "" && len(tail) > 1 && isName(tail[len(tail)-1]) {
			out["name"] = tail[len(tail)-1]
			tail = tail[:len(tail)-1]
		}
		out["address"] = strings.Join(append(before, tail...), ", ")
		return out
	}
	name, others := nameOf(splitParts(rest), false, needName)
	if name != "" {
		out["name"] = name
	}
	// A street the address finder does not know ("1 Ferry Building, San
	// Francisco CA 94111"): with a phone in the same message, what is left
	// that has a house number and words is the address.
	if addr := strings.Join(others, ", "); out["phone"] != "" && len(others) > 0 && hasDigitAndLetters(addr) {
		out["address"] = addr
	}
	return out
}

// nameOf finds the name among the parts before an address: the first
// part that reads as a name, or the first two words of one that also
// names a city ("Сергей Иванов Санкт-Петербург"). The other parts are
// returned: they belong to the address.
func nameOf(parts []string, beforeAddress, needName bool) (name string, others []string) {
	for _, p := range parts {
		w := strings.Fields(p)
		// One capitalized word before an address names a city unless a
		// name is what checkout asked for.
		if name == "" && isName(p) && !(beforeAddress && len(w) > 2) && (needName || len(w) > 1) {
			name = p
			continue
		}
		if name == "" && beforeAddress {
			if len(w) > 2 && isName(strings.Join(w[:2], " ")) {
				name = strings.Join(w[:2], " ")
				others = append(others, strings.Join(w[2:], " "))
				continue
			}
		}
		others = append(others, p)
	}
	return name, others
}

func splitParts(s string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(contactSeparators, r) }) {
		if p = strings.Trim(strings.TrimSpace(p), ".:-"); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// isName reports whether s reads as a person's name: one to four words of
// letters, each capitalized, no digits.
func isName(s string) bool {
	words := strings.Fields(s)
	if len(words) == 0 || len(words) > 4 {
		return false
	}
	for _, w := range words {
		for i, r := range w {
			switch {
			case i == 0 && !unicode.IsUpper(r):
				return false
			case !unicode.IsLetter(r) && r != '-' && r != '\'' && r != '.':
				return false
			}
		}
	}
	return true
}

// hasDigitAndLetters reports a text with a digit and at least two words.
func hasDigitAndLetters(s string) bool {
	return strings.ContainsAny(s, "0123456789") && len(strings.Fields(s)) >= 2 && strings.IndexFunc(s, unicode.IsLetter) >= 0
}
