package catalog

import (
	"shopbot/catalog/clip"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Chunk sizes, in runes: paragraphs of one section are joined while the
// chunk stays under chunkTarget, and a paragraph longer than chunkMax is
// cut at sentence (or else word) ends. A few hundred characters is a
// passage that answers one question and fits a tool result beside others.
const (
	chunkTarget = 600
	chunkMax    = 900
)

// ChunkPage splits a page's Markdown body into passages by heading and
// paragraph: each chunk holds paragraphs of one section (the text under one
// heading, whose text it keeps as Heading), at most chunkMax runes. Fenced
// code is kept whole per paragraph and its lines are never headings.
func ChunkPage(body string) []Chunk {
	var out []Chunk
	var heading string
	var para []string // lines of the paragraph being read
	var cur []string  // paragraphs of the chunk being built
	curLen := 0
	flushChunk := func() {
		if len(cur) > 0 {
			out = append(out, Chunk{Heading: heading, Text: strings.Join(cur, "\n\n")})
		}
		cur, curLen = nil, 0
	}
	addPara := func() {
		text := strings.TrimSpace(strings.Join(para, "\n"))
		para = para[:0]
		if text == "" {
			return
		}
		for _, piece := range splitLong(text, chunkMax) {
			n := utf8.RuneCountInString(piece)
			if curLen > 0 && curLen+n > chunkTarget {
				flushChunk()
			}
			cur = append(cur, piece)
			curLen += n + 2
		}
	}
	fenced := false
	for _, line := range strings.Split(body, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fenced = !fenced
		}
		if h, ok := headingText(line); ok && !fenced {
			addPara()
			flushChunk()
			heading = h
			continue
		}
		if trimmed == "" && !fenced {
			addPara()
			continue
		}
		para = append(para, strings.TrimRight(line, " \t"))
	}
	addPara()
	flushChunk()
	return out
}

// headingText returns the text of an ATX heading line ("## Refunds").
func headingText(line string) (string, bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return "", false
	}
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(t) && t[n] != ' ' && t[n] != '\t') {
		return "", false
	}
	h := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t[n:]), "#"))
	return clip.Shorten(h, MaxPageTitle), true
}

// splitLong cuts text into pieces of at most max runes, at the last
// sentence end (or else space) before the limit.
func splitLong(text string, max int) []string {
	var out []string
	for utf8.RuneCountInString(text) > max {
		rs := []rune(text)
		cut := -1
		for i := max - 1; i > max/2; i-- {
			if (rs[i] == '.' || rs[i] == '!' || rs[i] == '?' || rs[i] == '\n') && i+1 < len(rs) && unicode.IsSpace(rs[i+1]) {
				cut = i + 1
				break
			}
		}
		if cut < 0 {
			for i := max - 1; i > max/2; i-- {
				if unicode.IsSpace(rs[i]) {
					cut = i
					break
				}
			}
		}
		if cut < 0 {
			cut = max
		}
		out = append(out, strings.TrimSpace(string(rs[:cut])))
		text = strings.TrimSpace(string(rs[cut:]))
	}
	if text != "" {
		out = append(out, text)
	}
	return out
}
