package tools

import (
	"context"
	"strings"
	"testing"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/team"
)

// TestRequestHumanAfterHours: outside the business hours request_human
// tells the shopper when someone will answer, in their language, by the
// session's clock across a weekend and time zones; within them it says
// the usual. The handoff happens either way.
func TestRequestHumanAfterHours(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	if err := catalog.SaveTeamSettings(ctx, e.db, catalog.RoundRobinOff, "Europe/Moscow mon-fri 09:00-18:00, sat 10:00-14:00", fixedNow); err != nil {
		t.Fatal(err)
	}
	msk, _ := time.LoadLocation("Europe/Moscow")
	ny, _ := time.LoadLocation("America/New_York")
	for _, c := range []struct {
		name, lang string
		now        time.Time
		want       string
	}{
		{"friday evening", "en", time.Date(2026, 11, 27, 19, 0, 0, 0, msk),
			"Our team is away right now. Someone will answer here tomorrow at 10:00 (Europe/Moscow time)."},
		{"saturday afternoon, russian", "ru", time.Date(2026, 11, 28, 15, 0, 0, 0, msk),
			"Сейчас команда магазина не на связи. Вам ответят здесь в понедельник в 09:00 (время Europe/Moscow)."},
		// Sunday 23:30 in New York is Monday 07:30 in Moscow: today at 09:00.
		{"clock in new york", "en", time.Date(2026, 11, 29, 23, 30, 0, 0, ny),
			"Our team is away right now. Someone will answer here today at 09:00 (Europe/Moscow time)."},
		{"sunday, russian", "ru", time.Date(2026, 11, 29, 12, 0, 0, 0, msk),
			"Сейчас команда магазина не на связи. Вам ответят здесь завтра в 09:00 (время Europe/Moscow)."},
		{"in hours", "en", time.Date(2026, 11, 27, 12, 0, 0, 0, msk), "A team member has been notified and will reply in this chat."},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.session.Now, e.session.Locale = c.now, c.lang
			res := e.call(t, "request_human", `{"reason":"The shopper wants a person"}`)
			var d struct {
				Status, Message string
				Back            string `json:"team_back_at"`
			}
			toolData(t, res, &d)
			if d.Status != "requested" || d.Message != c.want {
				t.Errorf("data = %+v\nwant message %q", d, c.want)
			}
			if (d.Back == "") != strings.HasPrefix(c.want, "A team member") {
				t.Errorf("team_back_at %q", d.Back)
			}
		})
	}
	conv, err := catalog.GetConversation(ctx, e.db, e.session.Conversation.ID)
	if err != nil || !conv.NeedsHuman {
		t.Errorf("conversation = %+v, %v", conv, err)
	}
	if _, err := team.OpenCase(ctx, e.db, conv.ID); err != nil {
		t.Errorf("no support case opened: %v", err)
	}
}
