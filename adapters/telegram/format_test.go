package telegram

import (
	"context"
	"strings"
	"testing"

	"shopbot/adapters/telegram/telegramtest"
	"shopbot/catalog/catalogtest"
	"shopbot/engine"
	"shopbot/engine/view"
)

func TestMarkdownHTML(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"**Bold** and *it* and _it_", "<b>Bold</b> and <i>it</i> and <i>it</i>"},
		{"use `a<b>&c` now", "use <code>a&lt;b&gt;&amp;c</code> now"},
		{"[shop](https://x.example/?a=1&b=\"2\")", `<a href="https://x.example/?a=1&amp;b=&#34;2&#34;">shop</a>`},
		{"[bad](javascript:alert(1))", "[bad](javascript:alert(1))"},
		{"# Title\n- one\n* two\n1. three", "<b>Title</b>\n• one\n• two\n1. three"},
		{"```\n<pre> & co\n```", "<pre>&lt;pre&gt; &amp; co</pre>"},
		{"snake_case_name and 2*3*4", "snake_case_name and 2*3*4"},
		{"**unclosed bold", "**unclosed bold"},
		{"<b>&Co</b>", "&lt;b&gt;&amp;Co&lt;/b&gt;"},
		{"**bold with *it* inside**", "<b>bold with <i>it</i> inside</b>"},
	} {
		got := markdownHTML(tc.in)
		if got != tc.want {
			t.Errorf("markdownHTML(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
		if _, err := telegramtest.ParseHTML(got); err != nil {
			t.Errorf("markdownHTML(%q) = %q: %v", tc.in, got, err)
		}
	}
}

func checkParts(t *testing.T, md string, parts []string) {
	t.Helper()
	var visible []string
	for i, p := range parts {
		v, err := telegramtest.ParseHTML(p)
		if err != nil {
			t.Fatalf("part %d: %v", i, err)
		}
		if n := telegramtest.Length(v); n > maxText || n == 0 {
			t.Fatalf("part %d is %d UTF-16 units", i, n)
		}
		visible = append(visible, v)
	}
	whole, _ := telegramtest.ParseHTML(markdownHTML(md))
	if strings.Join(strings.Fields(strings.Join(visible, " ")), "") != strings.Join(strings.Fields(whole), "") {
		t.Errorf("text changed by splitting")
	}
}

func TestSplitLong(t *testing.T) {
	var paras []string
	for i := 0; len(strings.Join(paras, "\n\n")) < 5000; i++ {
		paras = append(paras, strings.Repeat("Paragraph text with **bold** words. ", 8))
	}
	md := strings.Join(paras, "\n\n")
	parts := splitMessage(md, maxText)
	if len(parts) != 2 {
		t.Fatalf("%d parts for %d characters", len(parts), len(md))
	}
	checkParts(t, md, parts)
	if !strings.HasSuffix(strings.TrimSpace(parts[0]), "</b> words.") {
		t.Errorf("first part does not end on a paragraph: …%q", parts[0][len(parts[0])-30:])
	}
}

func TestSplitEmojiAndUnbroken(t *testing.T) {
	emoji := strings.Repeat("🛒🎁👟 ", 1500) // 4,500 characters, 7,500 UTF-16 units
	checkParts(t, emoji, splitMessage(emoji, maxText))
	flag := strings.Repeat("🇺🇦", 3000) // no spaces at all
	checkParts(t, flag, splitMessage(flag, maxText))
	word := strings.Repeat("&<x>", 2000)
	checkParts(t, word, splitMessage(word, maxText))
}

// TestLongAnswerSent: a 5,000-character and an emoji-heavy answer reach
// the (validating) fake Bot API as several messages, none refused.
func TestLongAnswerSent(t *testing.T) {
	long := strings.Repeat("Word **w** ", 300) + "\n\n" + strings.Repeat("More _text_ here. ", 300)
	emoji := strings.Repeat("🎉 <b>&amp; ", 900)
	r := newRig(t, catalogtest.SQLiteDemo(t), func(c *Config) {
		c.Engine = scripted(func(t engine.Turn) []engine.Event {
			txt := long
			if t.Text == "emoji" {
				txt = emoji
			}
			return []engine.Event{{Kind: engine.EventText, Text: txt}, {Kind: engine.EventDone, Text: txt}}
		})
	})
	u := telegramtest.User(901, "Kim")
	r.waitHandled(r.srv.Push(telegramtest.Text(u, "long")))
	r.waitHandled(r.srv.Push(telegramtest.Text(u, "emoji")))
	calls := r.sent("901")
	if len(calls) < 4 {
		t.Fatalf("calls:\n%s", telegramtest.Dump(calls))
	}
	for _, c := range calls {
		if c.Status != 200 {
			t.Errorf("refused: %s", telegramtest.Dump([]telegramtest.Call{c}))
		}
	}
}

// scripted is an engine that answers every turn with fixed events.
type scripted func(t engine.Turn) []engine.Event

func (s scripted) Handle(ctx context.Context, t engine.Turn, sink engine.Sink) error {
	for _, ev := range s(t) {
		if err := sink.Send(ctx, ev); err != nil {
			return err
		}
	}
	return nil
}

// TestHostileCards: names and summaries full of markup and a model answer
// full of broken Markdown are sent without "can't parse entities", and a
// caption stays within 1,024 characters.
func TestHostileCards(t *testing.T) {
	hostile := `</b><i>&amp;&#x;<a href="x">**_` + "`"
	card := view.Card{
		SKU: "H-1", Title: hostile + strings.Repeat("é", 300), Brand: hostile, Category: hostile, PriceText: "<$1>",
		InStock: true, ImageURL: "https://img.example.com/h.jpg", Summary: strings.Repeat(hostile+"🎁", 200),
	}
	r := newRig(t, catalogtest.SQLiteDemo(t), func(c *Config) {
		c.Engine = scripted(func(engine.Turn) []engine.Event {
			return []engine.Event{
				{Kind: engine.EventCards, Cards: []view.Card{card, {SKU: "H-2", Title: hostile, PriceText: "&"}}},
				{Kind: engine.EventText, Text: hostile + " **" + hostile + "** [x](" + hostile + ")"},
				{Kind: engine.EventButtons, Buttons: []view.Button{view.NewButton(hostile, view.Action{Kind: view.ActCart})}},
				{Kind: engine.EventDone},
			}
		})
	})
	r.waitHandled(r.srv.Push(telegramtest.Text(telegramtest.User(902, "Lu"), "hi")))
	calls := r.sent("902")
	if len(calls) != 3 {
		t.Fatalf("calls:\n%s", telegramtest.Dump(calls))
	}
	for _, c := range calls {
		if c.Status != 200 {
			t.Errorf("refused: %s", telegramtest.Dump([]telegramtest.Call{c}))
		}
	}
}

func FuzzFormat(f *testing.F) {
	for _, s := range []string{
		"**bold** _it_ `code` [l](https://a.b)", "<b>&Co</b>", "```\ncode", "# h\n- a\n* b", "*_`[](", "&#x; &amp &",
		"**a *b* c**", "[**x**](https://e.com)", "🇺🇦\n\n" + strings.Repeat("x", 5000),
		strings.Repeat("[", 5000), strings.Repeat("[a](", 1000), strings.Repeat("```\n", 1000), // once quadratic
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		h := markdownHTML(md)
		if _, err := telegramtest.ParseHTML(h); err != nil {
			t.Fatalf("markdownHTML(%q) = %q: %v", md, h, err)
		}
		for i, p := range splitMessage(md, 300) {
			v, err := telegramtest.ParseHTML(p)
			if err != nil {
				t.Fatalf("part %d of %q: %v", i, md, err)
			}
			if n := telegramtest.Length(v); n > 300 {
				t.Fatalf("part %d of %q is %d long", i, md, n)
			}
		}
		c := view.Card{Title: md, Brand: md, Summary: md, PriceText: md}
		v, err := telegramtest.ParseHTML(cardHTML(c, "en", maxCaption))
		if err != nil {
			t.Fatalf("card of %q: %v", md, err)
		}
		if telegramtest.Length(v) > maxCaption && telegramtest.Length(v) > 0 {
			head, _ := telegramtest.ParseHTML(cardHTML(view.Card{Title: md, Brand: md, PriceText: md}, "en", maxCaption))
			if telegramtest.Length(v) > telegramtest.Length(head) {
				t.Fatalf("caption of %q is %d long", md, telegramtest.Length(v))
			}
		}
	})
}
