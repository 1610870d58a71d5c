package catalog

import (
	"strings"
	"unicode"
)

// Countries as shoppers write them in an address or a question, in
// English and Russian, so delivery can be matched to the address without a
// model. A name ending in * matches any ending (Russian cases: «Канаду»,
// «в Германии»); several words must follow each other. Two- and
// three-letter codes are recognised only as a whole text or as the last
// part of an address ("…, Toronto, CA"): "us", "in" or "de" inside a
// sentence are words, not countries.
type country struct {
	code, en, ru string
	names        []string
}

var countries = []country{
	{"US", "United States", "США", []string{"usa", "united states", "united states of america", "america", "сша", "соединенные штаты", "америк*"}},
	{"CA", "Canada", "Канада", []string{"canada", "канад*"}},
	{"GB", "United Kingdom", "Великобритания", []string{"uk", "united kingdom", "great britain", "britain", "england", "scotland", "wales", "великобритани*", "британи*", "англия", "англии", "англию", "шотланди*"}},
	{"IE", "Ireland", "Ирландия", []string{"ireland", "ирланди*"}},
	{"DE", "Germany", "Германия", []string{"germany", "deutschland", "германи*"}},
	{"FR", "France", "Франция", []string{"france", "франци*"}},
	{"IT", "Italy", "Италия", []string{"italy", "итали*"}},
	{"ES", "Spain", "Испания", []string{"spain", "испани*"}},
	{"PT", "Portugal", "Португалия", []string{"portugal", "португали*"}},
	{"NL", "Netherlands", "Нидерланды", []string{"netherlands", "holland", "нидерланд*", "голланди*"}},
	{"BE", "Belgium", "Бельгия", []string{"belgium", "бельги*"}},
	{"CH", "Switzerland", "Швейцария", []string{"switzerland", "швейцари*"}},
	{"AT", "Austria", "Австрия", []string{"austria", "австри*"}},
	{"PL", "Poland", "Польша", []string{"poland", "польш*"}},
	{"CZ", "Czechia", "Чехия", []string{"czechia", "czech republic", "чехи*"}},
	{"SE", "Sweden", "Швеция", []string{"sweden", "швеци*"}},
	{"NO", "Norway", "Норвегия", []string{"norway", "норвеги*"}},
	{"FI", "Finland", "Финляндия", []string{"finland", "финлянди*"}},
	{"DK", "Denmark", "Дания", []string{"denmark", "дания", "дании", "данию"}},
	{"EE", "Estonia", "Эстония", []string{"estonia", "эстони*"}},
	{"LV", "Latvia", "Латвия", []string{"latvia", "латви*"}},
	{"LT", "Lithuania", "Литва", []string{"lithuania", "литв*"}},
	{"RU", "Russia", "Россия", []string{"russia", "russian federation", "росси*", "рф"}},
	{"BY", "Belarus", "Беларусь", []string{"belarus", "беларус*", "белорусси*"}},
	{"UA", "Ukraine", "Украина", []string{"ukraine", "украин*"}},
	{"KZ", "Kazakhstan", "Казахстан", []string{"kazakhstan", "казахстан*"}},
	{"UZ", "Uzbekistan", "Узбекистан", []string{"uzbekistan", "узбекистан*"}},
	{"KG", "Kyrgyzstan", "Киргизия", []string{"kyrgyzstan", "киргизи*", "кыргызстан*"}},
	{"AM", "Armenia", "Армения", []string{"armenia", "армени*"}},
	{"GE", "Georgia", "Грузия", []string{"грузия", "грузии", "грузию"}},
	{"AZ", "Azerbaijan", "Азербайджан", []string{"azerbaijan", "азербайджан*"}},
	{"TR", "Turkey", "Турция", []string{"turkey", "turkiye", "турци*"}},
	{"IL", "Israel", "Израиль", []string{"israel", "израил*"}},
	{"AE", "United Arab Emirates", "ОАЭ", []string{"uae", "united arab emirates", "emirates", "оаэ", "эмират*"}},
	{"CN", "China", "Китай", []string{"china", "китай", "китая", "китае", "китаю"}},
	{"JP", "Japan", "Япония", []string{"japan", "япони*"}},
	{"KR", "South Korea", "Южная Корея", []string{"south korea", "korea", "корея", "корею", "корее", "кореи"}},
	{"IN", "India", "Индия", []string{"india", "индия", "индию", "индии"}},
	{"AU", "Australia", "Австралия", []string{"australia", "австрали*"}},
	{"NZ", "New Zealand", "Новая Зеландия", []string{"new zealand", "зеланди*"}},
	{"MX", "Mexico", "Мексика", []string{"mexico", "мексик*"}},
	{"BR", "Brazil", "Бразилия", []string{"brazil", "бразили*"}},
	{"AR", "Argentina", "Аргентина", []string{"argentina", "аргентин*"}},
}

// countryCities name a few capitals an address may end with instead of a
// country; they count only when no country is named.
var countryCities = map[string]string{
	"moscow": "RU", "москва": "RU", "москве": "RU", "москву": "RU", "петербург": "RU", "санкт": "RU",
	"london": "GB", "лондон": "GB", "berlin": "DE", "берлин": "DE", "paris": "FR", "париж": "FR",
	"toronto": "CA", "торонто": "CA", "минск": "BY", "minsk": "BY", "киев": "UA", "kyiv": "UA",
	"алматы": "KZ", "almaty": "KZ", "астана": "KZ", "ташкент": "UZ", "ереван": "AM", "тбилиси": "GE",
}

// CountryName is a country's English (lang "en") or Russian ("ru") name,
// or the code itself when unknown.
func CountryName(code, lang string) string {
	for _, c := range countries {
		if c.code == code {
			if lang == "ru" {
				return c.ru
			}
			return c.en
		}
	}
	return code
}

// CountryCode reads a country given on its own: an ISO code ("ca",
// "USA") or a name in English or Russian.
func CountryCode(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if code, ok := countryByCode(s); ok {
		return code, true
	}
	return CountryIn(s)
}

// CountryIn finds the country an address or a question names: the last
// country name in the text (an address ends with its country), else an
// ISO code as its last comma-separated part, else a capital it names.
func CountryIn(text string) (string, bool) {
	toks := countryTokens(text)
	best, at := "", -1
	for _, c := range countries {
		for _, name := range c.names {
			if i := lastPhrase(toks, strings.Fields(name)); i > at {
				best, at = c.code, i
			}
		}
	}
	if best != "" {
		return best, true
	}
	parts := strings.Split(text, ",")
	if code, ok := countryByCode(strings.Trim(parts[len(parts)-1], " .\t")); ok {
		return code, true
	}
	for i := len(toks) - 1; i >= 0; i-- {
		if code, ok := countryCities[toks[i]]; ok {
			return code, true
		}
	}
	return "", false
}

// countryByCode reads an alpha-2 code, or USA/UK/UAE/RUS.
func countryByCode(s string) (string, bool) {
	up := strings.ToUpper(s)
	switch up {
	case "USA":
		return "US", true
	case "UK":
		return "GB", true
	case "UAE":
		return "AE", true
	case "RUS":
		return "RU", true
	}
	for _, c := range countries {
		if c.code == up {
			return c.code, true
		}
	}
	return "", false
}

// countryTokens lower-cases text into words, ё folded to е.
func countryTokens(text string) []string {
	text = strings.ReplaceAll(strings.ToLower(text), "ё", "е")
	return strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) })
}

// lastPhrase is the index of the last occurrence of phrase in toks, or -1.
func lastPhrase(toks, phrase []string) int {
	for i := len(toks) - len(phrase); i >= 0; i-- {
		ok := true
		for j, w := range phrase {
			stem, prefix := strings.CutSuffix(w, "*")
			ok = ok && (toks[i+j] == w || prefix && strings.HasPrefix(toks[i+j], stem))
		}
		if ok {
			return i
		}
	}
	return -1
}
