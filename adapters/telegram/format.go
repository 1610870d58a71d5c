package telegram

import (
	"html"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf16"

	"shopbot/engine/view"
)

// Telegram's limits, in UTF-16 code units of the visible text.
const (
	maxText    = 4096
	maxCaption = 1024
)

// esc escapes text from data or the model for HTML parse mode.
func esc(s string) string { return html.EscapeString(s) }

var (
	fenceRE  = regexp.MustCompile("^\\s*```")
	headRE   = regexp.MustCompile(`^\s{0,3}#{1,6}\s+(.*)$`)
	bulletRE = regexp.MustCompile(`^(\s*)[-*+]\s+(.*)$`)
)

// markdownHTML converts the Markdown a model writes (bold, italics, code,
// fenced code, links, headings, lists) to Telegram HTML. Everything else is
// escaped, so any input yields text Telegram can parse.
func markdownHTML(md string) string {
	var out []string
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if fenceRE.MatchString(line) {
			var code []string
			j := i + 1
			for ; j < len(lines) && !fenceRE.MatchString(lines[j]); j++ {
				code = append(code, lines[j])
			}
			if j < len(lines) { // a closed fence
				out = append(out, "<pre>"+esc(strings.Join(code, "\n"))+"</pre>")
				i = j
				continue
			}
		}
		switch {
		case headRE.MatchString(line):
			out = append(out, "<b>"+inline(headRE.FindStringSubmatch(line)[1])+"</b>")
		case bulletRE.MatchString(line):
			m := bulletRE.FindStringSubmatch(line)
			out = append(out, m[1]+"• "+inline(m[2]))
		default:
			out = append(out, inline(line))
		}
	}
	return strings.Join(out, "\n")
}

// inline converts one line's emphasis, code and links. A delimiter with
// no partner on the line stays literal.
func inline(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if tag, inner, n, ok := span(s[i:]); ok {
			switch tag {
			case "code":
				b.WriteString("<code>" + esc(inner) + "</code>")
			case "a":
				text, href := splitLink(inner)
				b.WriteString(`<a href="` + esc(href) + `">` + inline(text) + "</a>")
			default:
				b.WriteString("<" + tag + ">" + inline(inner) + "</" + tag + ">")
			}
			i += n
			continue
		}
		b.WriteString(esc(s[i : i+1]))
		i++
	}
	return b.String()
}

// span recognises a construct starting at s[0]: the tag, its inner text,
// the bytes consumed.
func span(s string) (tag, inner string, n int, ok bool) {
	switch {
	case strings.HasPrefix(s, "`"):
		if end := strings.IndexByte(s[1:], '`'); end > 0 {
			return "code", s[1 : 1+end], end + 2, true
		}
	case strings.HasPrefix(s, "**"), strings.HasPrefix(s, "__"):
		d := s[:2]
		if end := strings.Index(s[2:], d); end > 0 && !strings.HasPrefix(s[2:], " ") {
			return "b", s[2 : 2+end], end + 4, true
		}
	case strings.HasPrefix(s, "~~"):
		if end := strings.Index(s[2:], "~~"); end > 0 {
			return "s", s[2 : 2+end], end + 4, true
		}
	case strings.HasPrefix(s, "*"), strings.HasPrefix(s, "_"):
		d := s[:1]
		if len(s) > 1 && s[1] != ' ' && s[1] != d[0] {
			if end := strings.Index(s[1:], d); end > 0 && s[end] != ' ' && wordEnd(s, end+2) {
				return "i", s[1 : 1+end], end + 2, true
			}
		}
	case strings.HasPrefix(s, "["):
		if text, href, n, ok := link(s); ok {
			return "a", text + "\x00" + href, n, true
		}
	}
	return "", "", 0, false
}

// link parses [text](url) at the start of s, looking no further than
// maxLink bytes, so text full of brackets stays linear.
func link(s string) (text, href string, n int, ok bool) {
	const maxLink = 2048
	window := s[:min(len(s), maxLink)]
	close := strings.IndexAny(window[1:], "]\n")
	if close <= 0 || window[1+close] != ']' || !strings.HasPrefix(window[2+close:], "(") {
		return "", "", 0, false
	}
	text = window[1 : 1+close]
	rest := window[3+close:]
	end := strings.IndexAny(rest, ") \t\n")
	if end <= 0 || rest[end] != ')' || !safeURL(rest[:end]) {
		return "", "", 0, false
	}
	return text, rest[:end], 3 + close + end + 1, true
}

func splitLink(inner string) (text, href string) {
	text, href, _ = strings.Cut(inner, "\x00")
	return text, href
}

// wordEnd reports whether position i of s ends a word (so snake_case and
// 2*3*4 stay literal).
func wordEnd(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	c := s[i]
	return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')
}

func safeURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}

// visibleLen is the length Telegram counts for HTML text: UTF-16 code
// units of the text without tags, entities decoded.
func visibleLen(h string) int {
	var b strings.Builder
	inTag := false
	for _, r := range h {
		switch {
		case r == '<':
			inTag = true
		case r == '>' && inTag:
			inTag = false
		case !inTag:
			b.WriteRune(r)
		}
	}
	return len(utf16.Encode([]rune(html.UnescapeString(b.String()))))
}

// splitMessage renders Markdown as Telegram HTML messages of at most
// limit visible characters, split on paragraph boundaries, then lines,
// then words; each part is converted on its own so tags never straddle
// two messages.
func splitMessage(md string, limit int) []string {
	md = strings.TrimSpace(md)
	if md == "" {
		return nil
	}
	var parts []string
	cur := ""
	for _, piece := range pieces(md, limit) {
		joined := piece
		if cur != "" {
			joined = cur + "\n\n" + piece
		}
		if fits(joined, limit) {
			cur = joined
			continue
		}
		if cur != "" {
			parts = append(parts, markdownHTML(cur))
		}
		cur = piece
	}
	if cur != "" {
		parts = append(parts, markdownHTML(cur))
	}
	return parts
}

// pieces cuts md into paragraphs, each short enough on its own.
func pieces(md string, limit int) []string {
	var out []string
	for _, para := range strings.Split(md, "\n\n") {
		if strings.TrimSpace(para) == "" {
			continue
		}
		out = append(out, fit(para, limit, []string{"\n", " ", ""})...)
	}
	return out
}

// fit splits s by the first separator that makes every part fit,
// falling back to finer separators (the last, "", cuts between runes).
func fit(s string, limit int, seps []string) []string {
	if fits(s, limit) || len(seps) == 0 {
		return []string{s}
	}
	sep := seps[0]
	if sep == "" {
		return cutRunes(s, limit)
	}
	units := strings.Split(s, sep)
	var out []string
	cur := ""
	for _, u := range units {
		for _, small := range fit(u, limit, seps[1:]) {
			joined := small
			if cur != "" {
				joined = cur + sep + small
			}
			if fits(joined, limit) {
				cur = joined
				continue
			}
			if cur != "" {
				out = append(out, cur)
			}
			cur = small
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// fits reports whether Markdown s renders within limit. Rendering never
// lengthens the visible text (markup disappears, entities show as one
// character), so a short source needs no rendering to tell.
func fits(s string, limit int) bool {
	if utf16Len(s) <= limit {
		return true
	}
	return visibleLen(markdownHTML(s)) <= limit
}

// cutRunes cuts s between runes into pieces of at most limit UTF-16 units.
func cutRunes(s string, limit int) []string {
	var out []string
	start, n := 0, 0
	for i, r := range s {
		w := utf16.RuneLen(r)
		if n+w > limit && i > start {
			out = append(out, s[start:i])
			start, n = i, 0
		}
		n += w
	}
	return append(out, s[start:])
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// truncateVisible cuts plain text to n runes with an ellipsis.
func truncateVisible(s string, n int) string { return view.Shorten(s, n) }
