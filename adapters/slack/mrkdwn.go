package slack

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"shopbot/engine/view"
)

// escape applies Slack's three control-character escapes.
func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

var (
	headingRE = regexp.MustCompile(`^#{1,6}\s+(.+?)\s*#*$`)
	bulletRE  = regexp.MustCompile(`^(\s*)[-*+]\s+`)
	mdLinkRE  = regexp.MustCompile(`\[([^\]\n]+)\]\((https?://[^)\s]+)\)`)
	boldRE    = regexp.MustCompile(`\*\*([^*\n]+)\*\*|__([^_\n]+)__`)
	italicRE  = regexp.MustCompile(`(^|[^*\w])\*([^*\s][^*\n]*?)\*([^*\w]|$)`)
	strikeRE  = regexp.MustCompile(`~~([^~\n]+)~~`)
)

// toMrkdwn converts the model's Markdown to Slack mrkdwn: & < > escaped,
// **bold** → *bold*, *italic* → _italic_, ~~x~~ → ~x~, [label](url) →
// <url|label>, headings → bold lines, list bullets → •. Code spans and
// fenced blocks are kept as they are (escaped only).
func toMrkdwn(md string) string {
	var out []string
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			out = append(out, escape(line))
			continue
		}
		if fenced {
			out = append(out, escape(line))
			continue
		}
		out = append(out, convertLine(line))
	}
	return strings.Join(out, "\n")
}

func convertLine(line string) string {
	if m := headingRE.FindStringSubmatch(line); m != nil {
		return "*" + convertInline(m[1]) + "*"
	}
	if m := bulletRE.FindStringSubmatch(line); m != nil {
		return m[1] + "• " + convertInline(line[len(m[0]):])
	}
	return convertInline(line)
}

// convertInline converts the parts of a line outside `code` spans.
func convertInline(s string) string {
	parts := strings.Split(s, "`")
	for i := range parts {
		if i%2 == 1 && i < len(parts)-1 {
			parts[i] = escape(parts[i])
			continue
		}
		parts[i] = convertText(parts[i])
	}
	return strings.Join(parts, "`")
}

func convertText(s string) string {
	// Links first, as placeholders, so their URLs escape on their own.
	var links []string
	s = mdLinkRE.ReplaceAllStringFunc(s, func(m string) string {
		p := mdLinkRE.FindStringSubmatch(m)
		links = append(links, "<"+strings.NewReplacer("&", "&amp;", "<", "%3C", ">", "%3E", "|", "%7C").Replace(p[2])+"|"+escape(p[1])+">")
		return "\x00" + string(rune('0'+len(links)-1)) + "\x00"
	})
	s = escape(s)
	s = italicRE.ReplaceAllString(s, "${1}_${2}_${3}")
	s = boldRE.ReplaceAllStringFunc(s, func(m string) string {
		p := boldRE.FindStringSubmatch(m)
		return "*" + p[1] + p[2] + "*"
	})
	s = strikeRE.ReplaceAllString(s, "~$1~")
	for i, l := range links {
		if i < 10 {
			s = strings.Replace(s, "\x00"+string(rune('0'+i))+"\x00", l, 1)
		}
	}
	return s
}

// splitText cuts s into pieces of at most n characters, at a line break
// or a space where possible, never inside an &entity; or a <link>.
func splitText(s string, n int) []string {
	var out []string
	for utf8.RuneCountInString(s) > n {
		head, _ := cutRunes(s, n)
		cut := strings.LastIndex(head, "\n")
		if cut < len(head)/2 {
			cut = strings.LastIndex(head, " ")
		}
		if cut < len(head)/2 {
			cut = safeCut(head)
		}
		out = append(out, strings.TrimRight(s[:cut], " \n"))
		s = strings.TrimLeft(s[cut:], " \n")
	}
	if strings.TrimSpace(s) != "" {
		out = append(out, s)
	}
	return out
}

// safeCut backs off from the end of head so no &entity; or <link> is cut.
func safeCut(head string) int {
	cut := len(head)
	if i := strings.LastIndexAny(head, "&<"); i >= 0 && !strings.ContainsAny(head[i:], ";>") && i > 0 {
		cut = i
	}
	return cut
}

// cutRunes splits s after n runes.
func cutRunes(s string, n int) (string, string) {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos], s[pos:]
		}
		i++
	}
	return s, ""
}

// truncateRunes shortens s to n runes, ending with … when cut.
func truncateRunes(s string, n int) string { return view.Shorten(s, n) }

// fallbackText is a message's plain text for notifications.
func fallbackText(s string) string {
	return escape(truncateRunes(strings.TrimSpace(s), 2900))
}
