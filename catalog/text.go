package catalog

import "strings"

// storable makes text from outside storable in either database: invalid
// UTF-8 becomes U+FFFD and NUL is dropped (Postgres refuses both in text).
// The edges clean text before it gets here (clip.Clean); this is
// the last guard where one bad byte would otherwise fail every write of a
// row, such as a customer's name refreshed on each turn.
func storable(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "")
	}
	return s
}
