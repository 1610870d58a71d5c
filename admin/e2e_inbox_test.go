package admin_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/prometheus/client_golang/prometheus"

	"shopbot/admin"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/searchtest"
	"shopbot/catalog/team"
	"shopbot/engine"
	"shopbot/engine/view"
)

// TestEndToEndAgentDay drives an agent's day in a real browser: sign in
// as an agent, open the conversation assigned to them from "mine" (the
// shopper's and the assistant's bubbles, the customer panel beside
// them), take it over (the copilot's summary appears as a note), send
// the suggested reply, add a private note, answer with a canned reply,
// resolve; then, with the inbox
// open, a shopper's new message appears without reloading (the live
// stream) and the page title counts it as unread.
func TestEndToEndAgentDay(t *testing.T) {
	ctx, _ := browser(t)
	db := catalogtest.SQLite(t)
	eng, err := engine.New(engine.Config{DB: db, Search: searchtest.NewDatabase(db), Registry: prometheus.NewRegistry()})
	if err != nil {
		t.Fatal(err)
	}
	p := livePanel(t, db, func(c *admin.Config) { c.Copilot = eng })
	f := seed(t, db)
	bg := context.Background()
	if err := admin.CreateUserAs(bg, db, "ann", testPassword, team.StaffAgent); err != nil {
		t.Fatal(err)
	}
	ann, _ := team.FindStaffUser(bg, db, "ann")
	if err := team.AssignConversation(bg, db, f.conv.ID, &ann.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := team.SaveCannedReply(bg, db, "thanks", "Thanks, {name}! Order {order} is on its way.", time.Now()); err != nil {
		t.Fatal(err)
	}
	_ = team.MarkConversationRead(bg, db, f.conv.ID, time.Now().Add(time.Hour))
	base := p.srv.URL
	run := func(step string, actions ...chromedp.Action) {
		t.Helper()
		sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if err := chromedp.Run(sctx, actions...); err != nil {
			var loc, body string
			chromedp.Run(ctx, chromedp.Location(&loc), chromedp.Text("body", &body, chromedp.ByQuery))
			t.Fatalf("%s: %v (at %s)\n%.1500s", step, err, loc, body)
		}
	}
	run("sign in as the agent",
		chromedp.Navigate(base+"/admin/conversations?view=mine"),
		chromedp.WaitVisible(`input[name=username]`, chromedp.ByQuery),
		chromedp.SendKeys(`input[name=username]`, "ann", chromedp.ByQuery),
		chromedp.SendKeys(`input[name=password]`, testPassword, chromedp.ByQuery),
		chromedp.Submit(`input[name=password]`, chromedp.ByQuery),
		chromedp.WaitVisible(`//nav[@class="tabs"]/a[@aria-current="page" and text()="Mine"]`),
	)
	run("open the assigned conversation: bubbles beside the customer panel",
		chromedp.Click(`#inbox-live a`, chromedp.ByQuery),
		chromedp.WaitVisible(`#team`, chromedp.ByQuery),
		chromedp.WaitVisible(`#transcript .msg.user`, chromedp.ByQuery),
		chromedp.WaitVisible(`#transcript .msg.assistant details.calls`, chromedp.ByQuery),
		chromedp.WaitVisible(`//aside[@id="shopper"]//a[text()="`+f.order.Number+`"]`),
	)
	shot(t, ctx, "agent-conversation")
	run("take it over: the copilot's summary",
		chromedp.Click(`//button[text()="Take over"]`),
		chromedp.WaitVisible(`//div[contains(@class, "note")]/p[contains(., "Summary so far:") and contains(., "Order: `+f.order.Number+`")]`),
	)
	var draft string
	run("ask for a suggested reply",
		chromedp.Click(`#suggest`, chromedp.ByQuery),
		chromedp.WaitVisible(`//p[contains(@class, "copilot") and contains(., "Drafted by the offline assistant")]`),
		chromedp.Value(`textarea[name=text]`, &draft, chromedp.ByQuery),
	)
	if draft == "" {
		t.Fatal("the suggested reply is empty")
	}
	shot(t, ctx, "agent-suggestion")
	run("edit and send the suggested reply",
		chromedp.SendKeys(`textarea[name=text]`, " (Ann)", chromedp.ByQuery),
		chromedp.Click(`//button[text()="Send reply"]`),
		chromedp.WaitVisible(`//div[contains(@class, "merchant")]/p[contains(., "(Ann)")]`),
	)
	run("add a private note",
		chromedp.SendKeys(`#notes textarea[name=body]`, "Called back about sizes", chromedp.ByQuery),
		chromedp.Click(`//button[text()="Add note"]`),
		chromedp.WaitVisible(`//div[contains(@class, "note")]/p[text()="Called back about sizes"]`),
	)
	run("answer with a canned reply",
		chromedp.SendKeys(`textarea[name=text]`, "/thanks", chromedp.ByQuery),
		chromedp.Click(`//button[text()="Send reply"]`),
		chromedp.WaitVisible(`//div[contains(@class, "merchant")]/p[contains(., "Order `+f.order.Number+` is on its way.")]`),
	)
	run("resolve",
		chromedp.SetValue(`#team select[name=status]`, "resolved", chromedp.ByQuery),
		chromedp.Click(`//form[contains(@action, "/status")]//button`),
		chromedp.WaitVisible(`//p[@class="flash" and contains(., "is resolved")]`),
	)
	shot(t, ctx, "agent-transcript")
	run("on a phone", chromedp.EmulateViewport(390, 844), chromedp.Reload(), chromedp.WaitVisible(`#shopper`, chromedp.ByQuery))
	shot(t, ctx, "agent-transcript-phone")
	run("back to a laptop", chromedp.EmulateViewport(1280, 900))
	run("open the inbox",
		chromedp.Navigate(base+"/admin/conversations"),
		chromedp.WaitVisible(`#inbox-live`, chromedp.ByQuery),
	)
	var title string
	run("read the title", chromedp.Title(&title))
	if title != "Conversations · Test Shop admin" {
		t.Errorf("title with nothing unread = %q", title)
	}
	if err := catalog.AppendMessages(bg, db, f.conv.ID, &catalog.Message{Role: catalog.RoleUser, Content: "Live question from Eve"}); err != nil {
		t.Fatal(err)
	}
	run("the new message appears without reloading",
		chromedp.WaitVisible(`//td[@class="preview" and contains(., "Live question from Eve")]`),
		chromedp.WaitVisible(`//tr[contains(@class, "unread")]//td[@class="small" and contains(., "open")]`),
		chromedp.Poll(`document.title.startsWith("(1) ")`, nil),
	)
	shot(t, ctx, "agent-inbox-live")
	run("leave the page (its stream ends)", chromedp.Navigate("about:blank"))
	var replies, ratings int
	for _, n := range p.notes.all() {
		switch n.Kind {
		case view.NoticeMerchantReply:
			replies++
		case view.NoticeCSAT:
			ratings++
		default:
			t.Errorf("unexpected notice to the shopper: %+v", n)
		}
	}
	if replies != 2 || ratings != 1 {
		t.Errorf("notices to the shopper: %d replies, %d rating prompts; want 2 (the replies, not the notes) and 1 (after resolving)", replies, ratings)
	}
}
