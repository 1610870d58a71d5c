package analysis

import (
	"maps"
	"slices"
	"strings"
)

// AttributeText renders a product's attributes as searchable text
// ("color: red; waterproof; …"): "color: red" keeps the key ("size 42"
// finds sizes), a yes/no flag becomes its key or nothing ("waterproof":
// "no" must not match "waterproof").
func AttributeText(attrs map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(attrs)) {
		v := attrs[k]
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "", "no", "false", "нет":
			continue
		case "yes", "true", "да":
			b.WriteString(k)
		default:
			b.WriteString(k + ": " + v)
		}
		b.WriteString("; ")
	}
	return b.String()
}

// AttributeKeys returns the values an attribute filter matches for attrs,
// sorted and distinct, as "key\x00value" lower-cased: each value whole
// and, for a comma-separated list ("40, 41, 42"), each listed value.
func AttributeKeys(attrs map[string]string) []string {
	var keys []string
	for k, v := range attrs {
		prefix := strings.ToLower(strings.TrimSpace(k)) + "\x00"
		keys = append(keys, prefix+strings.ToLower(strings.TrimSpace(v)))
		if !strings.Contains(v, ",") {
			continue
		}
		for part := range strings.SplitSeq(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				keys = append(keys, prefix+strings.ToLower(part))
			}
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// AttributeKey is the key an attribute filter on k = v looks up among a
// product's AttributeKeys.
func AttributeKey(k, v string) string {
	return strings.ToLower(strings.TrimSpace(k)) + "\x00" + strings.ToLower(strings.TrimSpace(v))
}
