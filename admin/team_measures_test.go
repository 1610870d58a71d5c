package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/team"
	"shopbot/engine/view"
)

// TestTeamMeasuresAndCSAT: a handoff answered and resolved in the panel
// shows on the Team page (first response and resolution time by the
// panel's clock); resolving sends the shopper one rating prompt (not a
// second on a second resolve), and the rating shows on the transcript
// and the Team page. Team settings are the owner's: a bad value is a 400
// that changes nothing; an agent cannot open or change them.
func TestTeamMeasuresAndCSAT(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		p := newPanel(t, db)
		f := seed(t, db)
		ctx := context.Background()
		p.signIn()
		agent := roleClient(t, p, "ann", team.StaffAgent)
		conv := "/admin/conversations/" + itoa(f.conv.ID)

		if code, _ := agent.get("/admin/team"); code != http.StatusForbidden {
			t.Errorf("agent GET /admin/team = %d, want 403", code)
		}
		if code, _, _ := agent.post("/admin/team", url.Values{"round_robin": {"agents"}}); code != http.StatusForbidden {
			t.Errorf("agent POST /admin/team = %d, want 403", code)
		}
		if code, _, body := p.post("/admin/team", url.Values{"round_robin": {"agents"}, "hours": {"Mars/Base mon 09:00-18:00"}}); code != http.StatusBadRequest || !strings.Contains(body, "not a time zone") {
			t.Errorf("bad hours = %d\n%.500s", code, body)
		}
		if ts, _ := catalog.GetTeamSettings(ctx, db); ts.RoundRobin != catalog.RoundRobinOff || !ts.Hours.AlwaysOpen() {
			t.Errorf("a refused save changed the settings: %+v", ts)
		}
		if code, _, _ := p.post("/admin/team", url.Values{"round_robin": {"agents"}, "hours": {"Europe/Berlin mon-fri 09:00-18:00"}}); code != http.StatusSeeOther {
			t.Fatalf("save team settings = %d", code)
		}
		if _, page := p.get("/admin/team"); !strings.Contains(page, `value="Europe/Berlin mon-fri 09:00-18:00"`) {
			t.Error("the saved hours are not shown")
		}

		// The shopper asks for a person; the agent, online, gets it by round robin.
		start := p.clock.Now()
		if _, err := team.HandOff(ctx, db, f.conv.ID, "wants a person", start); err != nil {
			t.Fatal(err)
		}
		if w, _ := catalog.GetWorkflow(ctx, db, f.conv.ID); w.Assignee != "ann" {
			t.Errorf("round robin assigned %q, want ann (the only online agent)", w.Assignee)
		}
		p.clock.add(3 * time.Minute)
		if err := team.RecordStaffReply(ctx, db, f.conv.ID, agentID(t, db, "ann"), p.clock.Now()); err != nil {
			t.Fatal(err)
		}
		p.clock.add(7 * time.Minute)
		for range 2 {
			if code, _, _ := agent.post(conv+"/status", url.Values{"status": {"resolved"}}); code != http.StatusSeeOther {
				t.Fatalf("resolve = %d", code)
			}
		}
		var prompts []view.Notice
		for _, n := range p.notes.all() {
			if n.Kind == view.NoticeCSAT {
				prompts = append(prompts, n)
			}
		}
		if len(prompts) != 1 || prompts[0].Where != f.conv.Key() || prompts[0].ConversationID != f.conv.ID {
			t.Fatalf("rating prompts = %+v, want one to the conversation", prompts)
		}
		if _, page := agent.get(conv); !strings.Contains(page, "Asked to rate") {
			t.Error("the transcript does not say the shopper was asked to rate")
		}
		if err := team.RateConversation(ctx, db, f.conv.ID, 5, p.clock.Now()); err != nil {
			t.Fatal(err)
		}
		if _, page := agent.get(conv); !strings.Contains(page, "Shopper's rating: <strong>5 / 5</strong> for ann") {
			t.Error("the transcript does not show the rating")
		}
		// The period runs over the days of the case (it may cross midnight).
		_, page := p.get("/admin/team?from=" + start.Format("2006-01-02") + "&to=" + p.clock.Now().Format("2006-01-02"))
		row := page[strings.Index(page, "<td>ann</td>"):]
		row = row[:strings.Index(row, "</tr>")]
		for _, want := range []string{"<td>1</td><td>3 min", "<td>1</td><td>10 min", "<td>1</td><td>5.0 / 5</td>"} {
			if !strings.Contains(row, want) {
				t.Errorf("ann's row lacks %q: %s", want, row)
			}
		}
	})
}

func agentID(t *testing.T, db *bun.DB, name string) int64 {
	t.Helper()
	u, err := team.FindStaffUser(context.Background(), db, name)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}
