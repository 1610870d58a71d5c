package slack_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"shopbot/engine"
	"shopbot/engine/view"
)

// longAnswer is about 5,000 characters of Markdown with & < > in it.
func longAnswer() string {
	var b strings.Builder
	for i := 0; b.Len() < 5000; i++ {
		fmt.Fprintf(&b, "## Pick %d\n**Trail & road** shoes for <fast> runs — see [the guide](https://example.com/g?a=1&b=%d).\n- light\n- *cushioned*\n\n", i, i)
	}
	return b.String()
}

func manyCards(n int) []view.Card {
	cs := make([]view.Card, n)
	for i := range cs {
		cs[i] = view.Card{SKU: fmt.Sprintf("SKU-%03d", i), Title: fmt.Sprintf("Shoe <%d> & co", i), Brand: "Brand",
			PriceText: "$10.00", Stock: 3, InStock: true, ImageURL: fmt.Sprintf("https://img.example.com/%d.jpg", i),
			Summary: strings.Repeat("Long summary text. ", 60)}
	}
	return cs
}

// bigReply streams a 5,000-character answer in small pieces after 60
// product cards, with a few buttons.
func bigReply(engine.Turn) []engine.Event {
	evs := []engine.Event{{Kind: engine.EventCards, Cards: manyCards(60)}}
	answer := longAnswer()
	for _, piece := range strings.SplitAfter(answer, "\n") {
		evs = append(evs, engine.Event{Kind: engine.EventText, Text: piece})
	}
	evs = append(evs, engine.Event{Kind: engine.EventButtons, Buttons: []view.Button{
		view.NewButton("View cart", view.Action{Kind: view.ActCart}),
		view.NewButton("Checkout", view.Action{Kind: view.ActCheckout})}})
	return append(evs, engine.Event{Kind: engine.EventDone, Text: answer})
}

// TestLimitsRespected: a 5,000-character answer and 60 products reach
// Slack as valid messages (the fake rejects what Slack rejects: over 50
// blocks, sections over 3,000 characters, and so on) whether the answer
// streams or is posted and updated.
func TestLimitsRespected(t *testing.T) {
	for _, streaming := range []bool{true, false} {
		t.Run(fmt.Sprintf("streaming=%v", streaming), func(t *testing.T) {
			e := newEnv(t, &countingEngine{reply: bigReply})
			if !streaming {
				e.fake.DisableStreaming()
			}
			root := e.nextTS()
			e.postEvent(mention("UANN", "C1", root, "", "everything"))
			e.waitFor("C1", root, "the buttons", hasText(`"value":"co"`))
			e.ad.Wait()
			for _, c := range e.fake.Calls() {
				if c.Method == "chat.startStream" && !streaming {
					continue // answered unknown_method
				}
				if strings.HasPrefix(c.Method, "chat.") && c.Args["blocks"] != "" && len(c.Args["blocks"]) < 10 {
					t.Errorf("%s with empty blocks", c.Method)
				}
			}
			msgs := e.fake.Messages("C1", root)
			var cards, sections int
			for _, m := range msgs {
				if len(m.Blocks) > 50 {
					t.Errorf("message with %d blocks", len(m.Blocks))
				}
				for _, b := range m.Blocks {
					if b["type"] == "section" {
						sections++
						if strings.HasPrefix(fmt.Sprint(b["block_id"]), "card:") {
							cards++
						}
						txt, _ := b["text"].(map[string]any)["text"].(string)
						if utf8.RuneCountInString(txt) > 3000 {
							t.Errorf("section of %d characters", utf8.RuneCountInString(txt))
						}
						if strings.Contains(txt, "<fast>") || strings.Contains(txt, "Shoe <") {
							t.Errorf("unescaped text: %.200s", txt)
						}
					}
				}
			}
			if cards != 60 {
				t.Errorf("%d of 60 products shown", cards)
			}
			all := ""
			for _, m := range msgs {
				all += m.Content()
			}
			for _, want := range []string{"Pick 0", "Pick 30", "&lt;fast&gt;", `"type":"image"`, "SKU-059"} {
				if !strings.Contains(all, want) {
					t.Errorf("thread lacks %q", want)
				}
			}
			if streaming {
				if n := len(e.fake.Calls("chat.startStream")); n != 1 {
					t.Errorf("%d streams for one answer", n)
				}
			} else {
				updates := e.fake.Calls("chat.update")
				for i := 1; i < len(updates); i++ {
					if gap := updates[i].At.Sub(updates[i-1].At); gap < 190*time.Millisecond {
						t.Errorf("chat.update %d came %s after the previous one (throttle 200ms)", i, gap)
					}
				}
			}
		})
	}
}

// TestRateLimitRetryAfter: Slack answers 429 with Retry-After: 2; the
// adapter makes no call of that method for two seconds, then delivers.
func TestRateLimitRetryAfter(t *testing.T) {
	e := newEnv(t, &countingEngine{})
	e.fake.RateLimit("chat.postMessage", 2)
	e.postEvent(dm("UANN", "D1", e.nextTS(), "hi"))
	e.waitFor("D1", "", "the answer", hasText("Hello Ann"))
	calls := e.fake.Calls("chat.postMessage")
	if len(calls) != 2 {
		t.Fatalf("%d postMessage calls", len(calls))
	}
	if gap := calls[1].At.Sub(calls[0].At); gap < 2*time.Second {
		t.Errorf("retried %s after a 429 with Retry-After: 2", gap)
	}
	if n := e.metric("shopbot_slack_api_calls_total", map[string]string{"method": "chat.postMessage", "outcome": "rate_limited"}); n != 1 {
		t.Errorf("rate-limited calls counted: %v", n)
	}
}

// TestStreamingUnavailable: when chat.startStream answers unknown_method
// the answer is posted and updated instead, and later answers do not try
// streaming again.
func TestStreamingUnavailable(t *testing.T) {
	e := newEnv(t, &countingEngine{})
	e.fake.DisableStreaming()
	for _, user := range []string{"UANN", "UBOB"} {
		root := e.nextTS()
		e.postEvent(mention(user, "C1", root, "", "hi"))
		m := e.waitFor("C1", root, "the answer", hasText("Hello"))
		if m.Streamed {
			t.Errorf("answer streamed: %+v", m)
		}
	}
	e.ad.Wait()
	if n := len(e.fake.Calls("chat.startStream")); n != 1 {
		t.Errorf("chat.startStream tried %d times", n)
	}
	if n := e.metric("shopbot_slack_api_calls_total", map[string]string{"method": "chat.startStream", "outcome": "error"}); n != 1 {
		t.Errorf("failed stream calls counted: %v", n)
	}
}
