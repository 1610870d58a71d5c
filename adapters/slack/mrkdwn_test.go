package slack

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestToMrkdwn(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"**Bold** and *italic* and __also bold__", "*Bold* and _italic_ and *also bold*"},
		{"# Heading", "*Heading*"},
		{"### Small heading ###", "*Small heading*"},
		{"- one\n* two\n  + nested", "• one\n• two\n  • nested"},
		{"~~gone~~", "~gone~"},
		{"[the guide](https://example.com/a?x=1&y=<2>)", "<https://example.com/a?x=1&amp;y=%3C2%3E|the guide>"},
		{"Tom & Jerry <script> x > y", "Tom &amp; Jerry &lt;script&gt; x &gt; y"},
		{"<@U123> <!channel>", "&lt;@U123&gt; &lt;!channel&gt;"},
		{"`a **b** <c>` **d**", "`a **b** &lt;c&gt;` *d*"},
		{"```\n**not bold** <x>\n```", "```\n**not bold** &lt;x&gt;\n```"},
		{"2 * 3 * 4", "2 * 3 * 4"},
		{"[label](javascript:alert(1))", "[label](javascript:alert(1))"},
	} {
		if got := toMrkdwn(tc.in); got != tc.want {
			t.Errorf("toMrkdwn(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestSplitText(t *testing.T) {
	long := strings.Repeat("word &amp; ", 1000) + strings.Repeat("x", 5000)
	parts := splitText(long, 3000)
	if strings.Join(parts, "") == "" || len(parts) < 4 {
		t.Fatalf("%d parts", len(parts))
	}
	total := 0
	for i, p := range parts {
		n := utf8.RuneCountInString(p)
		total += n
		if n > 3000 || n == 0 {
			t.Errorf("part %d has %d characters", i, n)
		}
		if strings.HasSuffix(p, "&amp") || strings.HasSuffix(p, "&") {
			t.Errorf("part %d cuts an entity: …%s", i, p[len(p)-10:])
		}
	}
	if total < utf8.RuneCountInString(long)-2000 {
		t.Errorf("text lost: %d of %d characters", total, utf8.RuneCountInString(long))
	}
	if got := splitText("short", 3000); len(got) != 1 || got[0] != "short" {
		t.Errorf("short: %q", got)
	}
	if got := splitText("  \n ", 3000); len(got) != 0 {
		t.Errorf("blank: %q", got)
	}
}

func TestCleanText(t *testing.T) {
	for in, want := range map[string]string{
		"<@UBOT> red shoes":                            "red shoes",
		"<@UBOT|shopbot> hi <@UANN>":                   "hi <@UANN>",
		"size &lt; 42 &amp; &gt; 40":                   "size < 42 & > 40",
		"<https://x.example/p|this> or <mailto:a@b.c>": "this or mailto:a@b.c",
	} {
		if got := cleanText(in, "UBOT"); got != want {
			t.Errorf("cleanText(%q) = %q, want %q", in, got, want)
		}
	}
}
