package analysis

import (
	"maps"
	"slices"
	"strings"
	"unicode"

	"shopbot/catalog"
)

// vectorDescBytes is how much of the description a vector text takes.
const vectorDescBytes = 200

// VectorText is what a product's vector is computed from: its title twice
// (the strongest evidence of what it is), brand, category path, attribute
// values (a yes/no flag by its key) and the first 200 bytes of its
// description.
func VectorText(p *catalog.Product) string {
	var b strings.Builder
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			b.WriteString(s)
			b.WriteString(". ")
		}
	}
	add(p.Title)
	add(p.Title)
	add(p.Brand)
	if p.Category != nil {
		add(p.Category.Path)
	}
	for _, k := range slices.Sorted(maps.Keys(p.Attributes)) {
		switch v := p.Attributes[k]; strings.ToLower(strings.TrimSpace(v)) {
		case "", "no", "false", "нет":
		case "yes", "true", "да":
			add(strings.ReplaceAll(k, "_", " "))
		default:
			add(v)
		}
	}
	add(descriptionStart(p.Description, vectorDescBytes))
	return strings.TrimSpace(b.String())
}

// descriptionStart cuts s to at most n bytes, at a space when there is one.
func descriptionStart(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = Truncate(s, n)
	if i := strings.LastIndexFunc(s, unicode.IsSpace); i > 0 {
		s = s[:i]
	}
	return s
}
