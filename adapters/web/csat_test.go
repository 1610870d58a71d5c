package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/team"
	"shopbot/engine/view"
)

// TestCSATOnTheWidget: the rating prompt reaches a web session as a
// notice with five buttons (the widget renders a notice's buttons as it
// does any), in the shopper's language; posting a button's data as the
// action stores the rating once and thanks the shopper; the conversation
// stays resolved.
func TestCSATOnTheWidget(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		h := shop(t, db)
		chat := h.(interface {
			Notify(context.Context, view.Notice) error
			Notices(http.ResponseWriter, *http.Request)
		})
		if w := post(h, `{"session":"`+session+`","locale":"en","message":"hello"}`, ""); w.Code != 200 {
			t.Fatalf("hello: %d %s", w.Code, w.Body)
		}
		conv, err := catalog.FindConversation(ctx, db, catalog.ConversationKey{Channel: "web", ChatID: session})
		if err != nil {
			t.Fatal(err)
		}
		staff, _ := team.CreateStaffUserAs(ctx, db, "agent", "h", team.StaffAgent, time.Now())
		if ask, err := team.ResolveConversation(ctx, db, conv.ID, staff.ID, time.Now()); err != nil || !ask {
			t.Fatalf("resolve: %v %v", ask, err)
		}
		if err := chat.Notify(ctx, view.Notice{Kind: view.NoticeCSAT, Where: conv.Key(), ConversationID: conv.ID, Locale: "en"}); err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		chat.Notices(rec, httptest.NewRequest(http.MethodGet, "/api/chat/notices?session="+session, nil))
		var resp struct {
			Notices []struct {
				Kind, Text string
				Buttons    []struct{ Label, Data string }
			}
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil || len(resp.Notices) != 1 {
			t.Fatalf("notices: %s (%v)", rec.Body, err)
		}
		n := resp.Notices[0]
		if n.Kind != "csat" || !strings.Contains(n.Text, "Rate our help from 1") || len(n.Buttons) != 5 || n.Buttons[4].Label != "5" || n.Buttons[4].Data != "rate||5" {
			t.Fatalf("notice = %+v", n)
		}
		w := post(h, `{"session":"`+session+`","action":"`+n.Buttons[4].Data+`"}`, "")
		if w.Code != 200 || !strings.Contains(w.Body.String(), "Thank you for your rating!") {
			t.Errorf("rate: %d %s", w.Code, w.Body)
		}
		w = post(h, `{"session":"`+session+`","action":"rate||2"}`, "")
		if w.Code != 200 || !strings.Contains(w.Body.String(), "rated this conversation already") {
			t.Errorf("second rating: %d %s", w.Code, w.Body)
		}
		w = post(h, `{"session":"`+session+`","action":"rate||9"}`, "") // forged: out of 1–5
		if w.Code != 200 || !strings.Contains(w.Body.String(), "nothing to rate") {
			t.Errorf("rating 9: %d %s", w.Code, w.Body)
		}
		cs, err := team.GetCSAT(ctx, db, conv.ID)
		if err != nil || cs.Rating == nil || *cs.Rating != 5 {
			t.Errorf("csat = %+v, %v", cs, err)
		}
		if wf, _ := catalog.GetWorkflow(ctx, db, conv.ID); wf.Status != catalog.ConvResolved {
			t.Errorf("a rating reopened the conversation: %s", wf.Status)
		}
	})
}
