package clip_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"shopbot/catalog/clip"
)

func TestBytes(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"hello", 10, "hello"},
		{"hello", 5, "hello"}, // exact length
		{"hello", 4, "hell"},
		{"hello", 0, ""},
		{"hello", -3, ""},
		{"", 0, ""},
		{"", -1, ""},
		{"привет", 12, "привет"}, // 6 runes of 2 bytes
		{"привет", 11, "приве"},  // the limit falls inside "т"
		{"привет", 1, ""},
		{"a😀b", 4, "a"}, // inside the 4-byte emoji
		{"a😀b", 5, "a😀"},
		{"ab\xffcd", 3, "ab\xff"}, // an invalid byte is a character of its own
	} {
		if got := clip.Bytes(c.s, c.n); got != c.want {
			t.Errorf("Bytes(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

// Every limit over mixed-width text: the result is the longest prefix of
// whole characters that fits.
func TestBytesEveryLimit(t *testing.T) {
	s := "Aé€😀 кросс 😀€éA"
	for n := -1; n <= len(s)+1; n++ {
		got := clip.Bytes(s, n)
		if len(got) > max(n, 0) || !strings.HasPrefix(s, got) || !utf8.ValidString(got) {
			t.Fatalf("Bytes(s, %d) = %q: not a valid prefix within the limit", n, got)
		}
		if rest := s[len(got):]; rest != "" {
			_, size := utf8.DecodeRuneInString(rest)
			if len(got)+size <= n {
				t.Fatalf("Bytes(s, %d) = %q: the next character would fit", n, got)
			}
		}
	}
}

func TestRunes(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"running shoes", 20, "running shoes"},
		{"running shoes", 13, "running shoes"}, // exact length
		{"running shoes", 8, "running "},       // not trimmed: the caller decides
		{"беговые кроссовки", 7, "беговые"},
		{"😀😀😀", 2, "😀😀"},
		{"abc", 0, ""},
		{"abc", -1, ""},
		{"", 3, ""},
		{"a\xffbc", 2, "a\uFFFD"}, // a cut keeps valid UTF-8
		{"a\xff", 5, "a\xff"},     // no cut, no change
	} {
		if got := clip.Runes(c.s, c.n); got != c.want {
			t.Errorf("Runes(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

func TestShorten(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"Trail shoes", 20, "Trail shoes"},
		{"Trail shoes", 11, "Trail shoes"}, // exact length: no ellipsis
		{"Trail shoes", 10, "Trail sho…"},
		{"Trail shoes", 7, "Trail…"}, // the space before the cut goes
		{"Trail shoes", 2, "T…"},
		{"Trail shoes", 1, "…"},
		{"Trail shoes", 0, ""},
		{"Trail shoes", -5, ""},
		{"", 0, ""},
		{"Кроссовки для бега", 10, "Кроссовки…"},
		{"Кроссовки для бега", 18, "Кроссовки для бега"},
		{"😀😀😀😀", 3, "😀😀…"},
		{"  lead in", 6, "  lea…"}, // only whitespace before the ellipsis is dropped
		{"ab\xffcd", 4, "ab\uFFFD…"},
		{"ab\xff", 3, "ab\xff"},
	} {
		got := clip.Shorten(c.s, c.n)
		if got != c.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
		if n := utf8.RuneCountInString(got); n > max(c.n, 0) {
			t.Errorf("Shorten(%q, %d) has %d runes", c.s, c.n, n)
		}
	}
}
