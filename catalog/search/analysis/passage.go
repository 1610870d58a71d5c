package analysis

import "shopbot/catalog"

// PassageVectorText is what a passage's vector is computed from, by both
// backends: its source's title, its heading and the start of its text.
func PassageVectorText(p *catalog.Passage) string {
	return p.Title + ". " + p.Heading + ". " + Truncate(p.Body, 600)
}

// PassageHeading is the heading a passage is indexed under: its own, or
// for a page's opening (no heading) the page title, which it sits
// directly under: "what is your return policy" should find the opening of
// "Returns and refunds", where a policy is stated, before its sections.
func PassageHeading(p *catalog.Passage) string {
	if p.Heading == "" {
		return p.Title
	}
	return p.Heading
}
