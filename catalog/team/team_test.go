package team_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/team"
)

// teamMember creates a staff user with a session last seen at seen.
func teamMember(t *testing.T, db bun.IDB, name string, role team.StaffRole, seen, now time.Time) int64 {
	t.Helper()
	ctx := context.Background()
	u, err := team.CreateStaffUserAs(ctx, db, name, "h", role, now)
	if err != nil {
		t.Fatal(err)
	}
	s := &team.StaffSession{TokenHash: "tok-" + name, UserID: u.ID, CSRFToken: "c", CreatedAt: seen, LastSeenAt: seen, ExpiresAt: now.Add(time.Hour)}
	if err := team.CreateStaffSession(ctx, db, s); err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// TestRoundRobin: off by default; on, a conversation needing a person
// goes to online agents only, in turn, and keeps an assignee it has.
// Two replicas handing off the same conversations at once, from many
// goroutines, give each conversation one assignee and every online agent
// the same number.
func TestRoundRobin(t *testing.T) {
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		ctx := context.Background()
		db := dbs[0]
		now := time.Now().UTC().Truncate(time.Second)
		agents := []int64{
			teamMember(t, db, "ann", team.StaffAgent, now.Add(-time.Minute), now),
			teamMember(t, db, "bob", team.StaffAgent, now, now),
			teamMember(t, db, "cat", team.StaffAgent, now.Add(-4*time.Minute), now),
		}
		away := teamMember(t, db, "dan", team.StaffAgent, now.Add(-team.OnlineWindow-time.Second), now)
		off := teamMember(t, db, "eve", team.StaffAgent, now, now)
		if err := team.SetStaffDisabled(ctx, db, off, true, now); err != nil {
			t.Fatal(err)
		}
		boss := teamMember(t, db, "own", team.StaffOwner, now, now)

		first := catalogtest.Chat(t, db, "rr-0")
		if who, err := team.HandOff(ctx, db, first.ID, "asked for a person", now); err != nil || who != 0 {
			t.Fatalf("round robin off: assigned %d, %v", who, err)
		}
		if err := catalog.SaveTeamSettings(ctx, db, "sometimes", "", now); !errors.Is(err, catalog.ErrInvalid) {
			t.Fatalf("bad mode: %v", err)
		}
		if ts, _ := catalog.GetTeamSettings(ctx, db); ts.RoundRobin != catalog.RoundRobinOff {
			t.Fatalf("a refused save changed the mode to %q", ts.RoundRobin)
		}
		if err := catalog.SaveTeamSettings(ctx, db, catalog.RoundRobinAgents, "", now); err != nil {
			t.Fatal(err)
		}
		online, err := team.OnlineStaff(ctx, db, nil, now)
		if err != nil || fmt.Sprint(online) != fmt.Sprint(append(append([]int64{}, agents...), boss)) {
			t.Fatalf("online %v (%v), want %v and the owner", online, err, agents)
		}
		// An assigned conversation keeps its assignee.
		if err := team.AssignConversation(ctx, db, first.ID, &boss); err != nil {
			t.Fatal(err)
		}
		if _, err := team.AutoAssign(ctx, db, first.ID, now); !errors.Is(err, catalog.ErrNotFound) {
			t.Fatalf("auto-assign an assigned conversation: %v", err)
		}

		const n = 30
		convs := make([]int64, n)
		for i := range convs {
			convs[i] = catalogtest.Chat(t, db, fmt.Sprintf("rr-%d", i+1)).ID
		}
		start := make(chan struct{})
		var wg sync.WaitGroup
		errs := make(chan error, 2*n)
		for _, id := range convs {
			for _, rdb := range dbs { // the same conversation on both replicas at once
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					errs <- rdb.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
						_, err := team.HandOff(ctx, tx, id, "asked for a person", now)
						return err
					})
				}()
			}
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		count := map[int64]int{}
		for _, id := range convs {
			w, err := catalog.GetWorkflow(ctx, db, id)
			if err != nil || w.AssigneeID == nil {
				t.Fatalf("conversation %d not assigned: %v", id, err)
			}
			count[*w.AssigneeID]++
			c, err := team.OpenCase(ctx, db, id)
			if err != nil || !c.OpenedAt.Equal(now) {
				t.Fatalf("conversation %d: case %+v, %v", id, c, err)
			}
		}
		for _, a := range agents {
			if count[a] != n/len(agents) {
				t.Errorf("agent %d got %d of %d conversations: %v", a, count[a], n, count)
			}
		}
		if count[away]+count[off]+count[boss] != 0 {
			t.Errorf("offline, disabled or non-agent members were assigned: %v", count)
		}
		// "staff" mode takes the owner in too, and the owner's turn is next
		// (never assigned automatically).
		if err := catalog.SaveTeamSettings(ctx, db, catalog.RoundRobinStaff, "", now); err != nil {
			t.Fatal(err)
		}
		next := catalogtest.Chat(t, db, "rr-next")
		if who, err := team.HandOff(ctx, db, next.ID, "asked for a person", now); err != nil || who != boss {
			t.Errorf("staff mode: assigned %d (%v), want the owner %d", who, err, boss)
		}
		// Later, everyone's session has gone quiet: no one is assigned.
		later := now.Add(team.OnlineWindow + time.Minute)
		quiet := catalogtest.Chat(t, db, "rr-quiet")
		if who, err := team.HandOff(ctx, db, quiet.ID, "asked for a person", later); err != nil || who != 0 {
			t.Errorf("no one online: assigned %d, %v", who, err)
		}
		// An open live stream's heartbeat keeps a member online.
		if err := team.HeartbeatStaffSession(ctx, db, "tok-dan", later); err != nil {
			t.Fatal(err)
		}
		beating := catalogtest.Chat(t, db, "rr-beat")
		if who, err := team.HandOff(ctx, db, beating.ID, "asked for a person", later); err != nil || who != away {
			t.Errorf("heartbeat: assigned %d (%v), want %d", who, err, away)
		}
	})
}

// TestSupportMeasures: first response and resolution times per agent
// over a period, the case opened by a shopper's message in a taken-over
// conversation, a double resolve asking for one rating, and CSAT stored
// once.
func TestSupportMeasures(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
		ann := teamMember(t, db, "ann", team.StaffAgent, t0, t0)
		bob := teamMember(t, db, "bob", team.StaffAgent, t0, t0)

		a := catalogtest.Chat(t, db, "m-a")
		if _, err := team.HandOff(ctx, db, a.ID, "needs a person", t0); err != nil {
			t.Fatal(err)
		}
		if _, err := team.HandOff(ctx, db, a.ID, "again", t0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if c, _ := team.OpenCase(ctx, db, a.ID); !c.OpenedAt.Equal(t0) {
			t.Errorf("a second handoff moved the open case to %v", c.OpenedAt)
		}
		_ = team.RecordStaffReply(ctx, db, a.ID, ann, t0.Add(2*time.Minute))
		_ = team.RecordStaffReply(ctx, db, a.ID, bob, t0.Add(9*time.Minute)) // not the first
		if err := team.AssignConversation(ctx, db, a.ID, &ann); err != nil {
			t.Fatal(err)
		}
		ask, err := team.ResolveConversation(ctx, db, a.ID, bob, t0.Add(10*time.Minute))
		if err != nil || !ask {
			t.Fatalf("resolve: ask %v, %v", ask, err)
		}
		if ask, err := team.ResolveConversation(ctx, db, a.ID, bob, t0.Add(11*time.Minute)); err != nil || ask {
			t.Fatalf("second resolve: ask %v, %v", ask, err)
		}

		// A taken-over conversation: the shopper's message opens the case.
		b := catalogtest.Chat(t, db, "m-b")
		if err := catalog.SetPaused(ctx, db, b.ID, true); err != nil {
			t.Fatal(err)
		}
		if err := catalog.AppendMessages(ctx, db, b.ID, &catalog.Message{Role: catalog.RoleUser, Content: "hello?", CreatedAt: t0.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if c, err := team.OpenCase(ctx, db, b.ID); err != nil || !c.OpenedAt.Equal(t0.Add(time.Hour)) {
			t.Fatalf("message in a taken-over conversation: case %+v, %v", c, err)
		}
		_ = team.RecordStaffReply(ctx, db, b.ID, bob, t0.Add(time.Hour+4*time.Minute))
		if _, err := team.ResolveConversation(ctx, db, b.ID, bob, t0.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}

		// CSAT: bad input, then the first answer stays.
		c := catalogtest.Chat(t, db, "m-c")
		if err := team.RateConversation(ctx, db, c.ID, 5, t0); !errors.Is(err, catalog.ErrConflict) {
			t.Errorf("rating a conversation never asked: %v", err)
		}
		if err := team.RateConversation(ctx, db, a.ID, 6, t0); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("rating 6: %v", err)
		}
		if err := team.RateConversation(ctx, db, a.ID, 4, t0.Add(20*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := team.RateConversation(ctx, db, a.ID, 1, t0.Add(21*time.Minute)); !errors.Is(err, catalog.ErrConflict) {
			t.Errorf("second rating: %v", err)
		}
		if cs, _ := team.GetCSAT(ctx, db, a.ID); cs.Rating == nil || *cs.Rating != 4 || cs.Agent != "ann" {
			t.Errorf("csat %+v", cs)
		}
		// Resolved again after a reopen: not asked again (rated already).
		if err := catalog.SetConversationStatus(ctx, db, a.ID, catalog.ConvOpen, nil, t0); err != nil {
			t.Fatal(err)
		}
		if ask, err := team.ResolveConversation(ctx, db, a.ID, ann, t0.Add(30*time.Minute)); err != nil || ask {
			t.Errorf("resolve a rated conversation: ask %v, %v", ask, err)
		}

		ms, err := team.TeamMeasures(ctx, db, t0, t0.Add(24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, m := range ms {
			got[m.Username] = fmt.Sprintf("replied %d in %v, resolved %d in %v, rated %d at %.1f",
				m.Replied, m.AvgFirstReply(), m.Resolved, m.AvgResolution(), m.Rated, m.AvgRating())
		}
		want := map[string]string{
			"ann":  "replied 1 in 2m0s, resolved 1 in 10m0s, rated 1 at 4.0",
			"bob":  "replied 1 in 4m0s, resolved 1 in 1h0m0s, rated 0 at 0.0",
			"team": "replied 2 in 3m0s, resolved 2 in 35m0s, rated 1 at 4.0",
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("measures\n got %v\nwant %v", got, want)
		}
		// Another period sees none of it.
		if ms, _ := team.TeamMeasures(ctx, db, t0.Add(48*time.Hour), t0.Add(72*time.Hour)); len(ms) != 1 || ms[0].Replied+ms[0].Resolved+ms[0].Rated != 0 {
			t.Errorf("empty period: %+v", ms)
		}
	})
}
