package clip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClean(t *testing.T) {
	for _, tc := range []struct {
		in, text, line string
		max            int
	}{
		{in: "plain", text: "plain", line: "plain"},
		{in: "a\x00b", text: "ab", line: "ab"},
		{in: "tab\there\nnext\r\n", text: "tab\there\nnext\n", line: "tab here next"},
		{in: "bad \xff\xfe utf8", text: "bad \uFFFD utf8", line: "bad \uFFFD utf8"},
		{in: "bell\a esc\x1b del\x7f c1\u0085", text: "bell esc del c1", line: "bell esc del c1"},
		{in: "Привет 👋", text: "Привет 👋", line: "Привет 👋"},
		{in: "ЁЁЁЁЁ", max: 3, text: "ЁЁЁ", line: "ЁЁЁ"},
		{in: "\x00\x00", text: "", line: ""},
	} {
		if got := Clean(tc.in, tc.max); got != tc.text {
			t.Errorf("Clean(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.text)
		}
		if got := CleanLine(tc.in, tc.max); got != tc.line {
			t.Errorf("CleanLine(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.line)
		}
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"", "a\x00b", "\xff", "line\nnext\ttab", "Привет", "\u0085\u200b"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		for _, got := range []string{Clean(s, max), CleanLine(s, max)} {
			if !utf8.ValidString(got) || strings.IndexByte(got, 0) >= 0 {
				t.Fatalf("%q cleaned to %q", s, got)
			}
			if max > 0 && utf8.RuneCountInString(got) > max {
				t.Fatalf("%q cleaned to %q: over %d runes", s, got, max)
			}
			if Clean(got, max) != got && got == Clean(s, max) {
				t.Fatalf("Clean not idempotent on %q", got)
			}
		}
	})
}
