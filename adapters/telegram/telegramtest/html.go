package telegramtest

import (
	"errors"
	"fmt"
	"html"
	"strings"
	"unicode/utf16"
)

// allowedTags are the tags Telegram's HTML parse mode accepts.
var allowedTags = map[string]bool{
	"b": true, "strong": true, "i": true, "em": true, "u": true, "ins": true,
	"s": true, "strike": true, "del": true, "code": true, "pre": true, "a": true,
	"tg-spoiler": true, "span": true, "blockquote": true, "tg-emoji": true,
}

// ParseHTML parses text the way Telegram's HTML parse mode does and returns
// the visible text. Like Telegram it rejects unknown or unbalanced tags and
// any "<" or "&" that is neither a tag nor an entity, with the error
// Telegram gives ("can't parse entities: …").
func ParseHTML(s string) (string, error) {
	var out strings.Builder
	var stack []string
	for i := 0; i < len(s); {
		switch s[i] {
		case '<':
			end := strings.IndexByte(s[i:], '>')
			if end < 0 {
				return "", parseErr("unclosed start tag at byte offset %d", i)
			}
			tag := s[i+1 : i+end]
			closing := strings.HasPrefix(tag, "/")
			name := strings.ToLower(strings.TrimPrefix(tag, "/"))
			attrs := ""
			if sp := strings.IndexAny(name, " \t\n"); sp >= 0 {
				name, attrs = name[:sp], tag[sp+1:]
			}
			if !allowedTags[name] {
				return "", parseErr("unsupported start tag \"%s\" at byte offset %d", name, i)
			}
			if closing {
				if len(stack) == 0 || stack[len(stack)-1] != name {
					return "", parseErr("can't find start tag corresponding to end tag \"%s\"", name)
				}
				stack = stack[:len(stack)-1]
			} else {
				if name == "a" && !strings.HasPrefix(strings.TrimSpace(attrs), "href=\"") {
					return "", parseErr("tag \"a\" must have an href attribute in double quotes")
				}
				if strings.Contains(attrs, "<") {
					return "", parseErr("bad attribute at byte offset %d", i)
				}
				stack = append(stack, name)
			}
			i += end + 1
		case '&':
			end := strings.IndexByte(s[i:], ';')
			if end < 0 || end > 10 {
				return "", parseErr("unescaped \"&\" at byte offset %d", i)
			}
			ent := s[i : i+end+1]
			dec := html.UnescapeString(ent)
			if dec == ent {
				return "", parseErr("unsupported entity %q at byte offset %d", ent, i)
			}
			out.WriteString(dec)
			i += end + 1
		case '>':
			return "", parseErr("unescaped \">\" at byte offset %d", i)
		default:
			out.WriteByte(s[i])
			i++
		}
	}
	if len(stack) > 0 {
		return "", parseErr("can't find end tag corresponding to start tag \"%s\"", stack[len(stack)-1])
	}
	return out.String(), nil
}

// ErrEntities is wrapped by ParseHTML's errors.
var ErrEntities = errors.New("can't parse entities")

func parseErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrEntities, fmt.Sprintf(format, args...))
}

// Length is the length Telegram limits: UTF-16 code units of the visible text.
func Length(visible string) int { return len(utf16.Encode([]rune(visible))) }
