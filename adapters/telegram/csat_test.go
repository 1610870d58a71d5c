package telegram

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/adapters/telegram/telegramtest"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/team"
	"shopbot/engine/view"
)

// TestCSATOnTelegram: after the team resolves a conversation the shopper
// gets the 1–5 prompt as inline buttons (in their language, on the wire
// as the fake Bot API checks it); a tap stores the rating on the
// conversation and thanks them, a second tap changes nothing, and
// neither reopens the conversation nor enters the transcript.
func TestCSATOnTelegram(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		r := newRig(t, db, nil)
		ann := telegramtest.User(821, "Ann")
		ann.LanguageCode = "ru"
		r.waitHandled(r.srv.Push(telegramtest.Text(ann, "привет")))
		conv, err := catalog.FindConversation(ctx, db, catalog.ConversationKey{Channel: "telegram", ChatID: "821"})
		if err != nil {
			t.Fatal(err)
		}
		staff, err := team.CreateStaffUserAs(ctx, db, "agent", "h", team.StaffAgent, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if ask, err := team.ResolveConversation(ctx, db, conv.ID, staff.ID, time.Now()); err != nil || !ask {
			t.Fatalf("resolve: %v %v", ask, err)
		}
		n := view.Notice{Kind: view.NoticeCSAT, Where: conv.Key(), ConversationID: conv.ID, Locale: "ru"}
		if err := r.a.Notify(ctx, n); err != nil {
			t.Fatal(err)
		}
		prompt := r.waitText("821", "Оцените")
		if got := prompt.Params["reply_markup"]; !strings.Contains(got, `[[{"text":"1","callback_data":"rate||1"},{"text":"2","callback_data":"rate||2"},{"text":"3","callback_data":"rate||3"},{"text":"4","callback_data":"rate||4"},{"text":"5","callback_data":"rate||5"}]]`) {
			t.Errorf("keyboard = %s", got)
		}
		before, _ := catalog.RecentMessages(ctx, db, conv.ID, 100)

		r.waitHandled(r.srv.Push(r.srv.Press(ann, "821", prompt.MessageID, "rate||4")))
		r.waitText("821", "Спасибо за оценку")
		r.waitHandled(r.srv.Push(r.srv.Press(ann, "821", prompt.MessageID, "rate||1")))
		r.waitText("821", "Вы уже оценили")

		cs, err := team.GetCSAT(ctx, db, conv.ID)
		if err != nil || cs.Rating == nil || *cs.Rating != 4 || cs.Agent != "agent" {
			t.Errorf("csat = %+v, %v", cs, err)
		}
		if w, _ := catalog.GetWorkflow(ctx, db, conv.ID); w.Status != catalog.ConvResolved {
			t.Errorf("a rating reopened the conversation: %s", w.Status)
		}
		if after, _ := catalog.RecentMessages(ctx, db, conv.ID, 100); len(after) != len(before) {
			t.Errorf("taps entered the transcript: %d messages, were %d", len(after), len(before))
		}
	})
}
