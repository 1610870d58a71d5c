package analysis

import "shopbot/catalog"

// PassageVectorText is what a passage's vector is computed from, by both
// backends: its source's title, its heading and the start of its text.
func PassageVectorText(p *catalog.Passage) string {
	return p.Title + ". " + p.Heading + ". " + Truncate(p.Body, 600)
}
