package importer

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// Shops export descriptions as HTML (Shopify's Body (HTML), WooCommerce's
// Description, often a Merchant Center description). The catalog keeps
// plain text, which the chat and search use as is, so htmlText turns the
// markup into text: tags stripped, entities decoded, script and style
// dropped, runs of spaces collapsed, and the breaks of paragraphs, line
// breaks, headings and list items kept (a list item starts with "- ").

// blockTags end a paragraph: a blank line between them.
var blockTags = map[string]bool{
	"p": true, "div": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"ul": true, "ol": true, "table": true, "blockquote": true, "section": true, "article": true, "pre": true,
}

// lineTags end a line.
var lineTags = map[string]bool{"br": true, "li": true, "tr": true, "dt": true, "dd": true}

// htmlText converts an HTML fragment to plain text. Text without a '<' or
// '&' is returned trimmed, as is.
func htmlText(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return strings.TrimSpace(s)
	}
	var b textBuilder
	z := html.NewTokenizer(strings.NewReader(s))
	skip := 0 // inside script or style
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.String() // io.EOF, or text cut short: keep what was read
		case html.TextToken:
			if skip == 0 {
				b.text(string(z.Text()))
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			tag := string(name)
			switch {
			case tag == "script" || tag == "style":
				skip++
			case blockTags[tag]:
				b.brk(2)
			case tag == "li":
				b.brk(1)
				b.text("- ")
			case lineTags[tag]:
				b.brk(1)
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			tag := string(name)
			switch {
			case tag == "script" || tag == "style":
				skip = max(0, skip-1)
			case blockTags[tag]:
				b.brk(2)
			case lineTags[tag]:
				b.brk(1)
			}
		}
	}
}

// textBuilder collapses spaces and breaks: at most one blank line, no
// spaces around line ends, none at the start or end.
type textBuilder struct {
	sb      strings.Builder
	breaks  int  // pending line breaks
	space   bool // a pending space
	started bool
}

func (b *textBuilder) text(s string) {
	if s == "" {
		return
	}
	if r, _ := utf8.DecodeRuneInString(s); isSpaceRune(r) {
		b.space = true
	}
	for _, f := range strings.FieldsFunc(s, isSpaceRune) {
		if b.started {
			switch {
			case b.breaks > 0:
				b.sb.WriteString(strings.Repeat("\n", min(b.breaks, 2)))
			case b.space:
				b.sb.WriteByte(' ')
			}
		}
		b.breaks, b.space, b.started = 0, true, true
		b.sb.WriteString(f)
	}
	// Text without a trailing space joins what comes next ("<b>50</b>%").
	r, _ := utf8.DecodeLastRuneInString(s)
	b.space = isSpaceRune(r)
}

func (b *textBuilder) brk(n int) {
	if b.started {
		b.breaks = max(b.breaks, n)
	}
}

func (b *textBuilder) String() string { return b.sb.String() }

func isSpaceRune(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\f', '\u00a0':
		return true
	}
	return false
}
