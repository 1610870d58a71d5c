package team_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/team"
)

// TestStaffRolesAndDisable: a new user is an agent unless a role is
// given; an unknown role is refused and changes nothing; disabling ends
// the user's sessions.
func TestStaffRolesAndDisable(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		now := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
		a, err := team.CreateStaffUser(ctx, db, "ann", "h", now)
		if err != nil || a.Role != team.StaffAgent {
			t.Fatalf("create = %+v, %v; want an agent", a, err)
		}
		if _, err := team.CreateStaffUserAs(ctx, db, "bob", "h", "boss", now); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("unknown role: %v, want ErrInvalid", err)
		}
		if _, err := team.FindStaffUser(ctx, db, "bob"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("bob was created with an unknown role: %v", err)
		}
		if err := team.SetStaffRole(ctx, db, a.ID, "root", now); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("set unknown role: %v", err)
		}
		if err := team.SetStaffRole(ctx, db, a.ID, team.StaffManager, now); err != nil {
			t.Fatal(err)
		}
		if err := team.CreateStaffSession(ctx, db, &team.StaffSession{TokenHash: "t1", UserID: a.ID, CSRFToken: "c", CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if err := team.SetStaffDisabled(ctx, db, a.ID, true, now); err != nil {
			t.Fatal(err)
		}
		u, err := team.GetStaffUser(ctx, db, a.ID)
		if err != nil || u.Role != team.StaffManager || !u.Disabled() {
			t.Errorf("after disable: %+v, %v", u, err)
		}
		if _, err := team.GetStaffSession(ctx, db, "t1"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("the disabled user's session lives on: %v", err)
		}
		if err := team.SetStaffDisabled(ctx, db, a.ID, false, now); err != nil {
			t.Fatal(err)
		}
		if u, _ := team.GetStaffUser(ctx, db, a.ID); u.Disabled() {
			t.Error("still disabled after enable")
		}
		if err := team.SetStaffDisabled(ctx, db, 99999, true, now); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("disable nobody: %v", err)
		}
	})
}

// TestStaffInvites: a link signs up one person once with its role; an
// expired, used or revoked link is refused; a taken name leaves the link
// usable; people racing for one link get one account.
func TestStaffInvites(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		now := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
		owner, err := team.CreateStaffUserAs(ctx, db, "own", "h", team.StaffOwner, now)
		if err != nil {
			t.Fatal(err)
		}
		mk := func(hash string, role team.StaffRole) *team.StaffInvite {
			inv := &team.StaffInvite{TokenHash: hash, Role: role, CreatedBy: &owner.ID, CreatedAt: now, ExpiresAt: now.Add(72 * time.Hour)}
			if err := team.CreateStaffInvite(ctx, db, inv); err != nil {
				t.Fatal(err)
			}
			return inv
		}
		mk("m1", team.StaffManager)
		if err := team.CreateStaffInvite(ctx, db, &team.StaffInvite{TokenHash: "x", Role: "god", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("invite with unknown role: %v", err)
		}
		if _, err := team.AcceptStaffInvite(ctx, db, "m1", "own", "h", now); !errors.Is(err, catalog.ErrConflict) {
			t.Errorf("taken name: %v, want ErrConflict", err)
		}
		u, err := team.AcceptStaffInvite(ctx, db, "m1", "meg", "h", now.Add(time.Hour))
		if err != nil || u.Role != team.StaffManager {
			t.Fatalf("accept = %+v, %v", u, err)
		}
		if _, err := team.AcceptStaffInvite(ctx, db, "m1", "meg2", "h", now.Add(time.Hour)); !errors.Is(err, team.ErrInviteUnusable) {
			t.Errorf("reused link: %v", err)
		}
		mk("a1", team.StaffAgent)
		if _, err := team.AcceptStaffInvite(ctx, db, "a1", "late", "h", now.Add(72*time.Hour)); !errors.Is(err, team.ErrInviteUnusable) {
			t.Errorf("expired link: %v", err)
		}
		if _, err := team.AcceptStaffInvite(ctx, db, "nope", "who", "h", now); !errors.Is(err, team.ErrInviteUnusable) {
			t.Errorf("unknown link: %v", err)
		}
		r := mk("r1", team.StaffAgent)
		if open, _ := team.ListStaffInvites(ctx, db, now); len(open) != 2 {
			t.Errorf("open invites = %d, want 2 (a1, r1)", len(open))
		}
		if err := team.RevokeStaffInvite(ctx, db, r.ID, now); err != nil {
			t.Fatal(err)
		}
		if _, err := team.AcceptStaffInvite(ctx, db, "r1", "rev", "h", now); !errors.Is(err, team.ErrInviteUnusable) {
			t.Errorf("revoked link: %v", err)
		}
		mk("race", team.StaffAgent)
		var wg sync.WaitGroup
		var mu sync.Mutex
		made := 0
		for _, name := range []string{"r-a", "r-b", "r-c", "r-d"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := team.AcceptStaffInvite(ctx, db, "race", name, "h", now)
				if err == nil {
					mu.Lock()
					made++
					mu.Unlock()
				} else if !errors.Is(err, team.ErrInviteUnusable) {
					t.Errorf("racing accept: %v", err)
				}
			}()
		}
		wg.Wait()
		if made != 1 {
			t.Errorf("one link made %d accounts, want 1", made)
		}
		users, _ := team.ListStaffUsers(ctx, db)
		if len(users) != 3 { // own, meg, one racer
			t.Errorf("staff users = %d, want 3", len(users))
		}
	})
}

// TestAuditLog: entries come back newest first, filtered by user and by
// action prefix (a LIKE wildcard in the filter is literal); an entry
// without user or action is refused.
func TestAuditLog(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		now := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
		for i, e := range []catalog.AuditEntry{
			{Username: "ann", Action: "order.status", Subject: "A-1", Detail: "status=shipped"},
			{Username: "bob", Action: "product.save", Subject: "7", Detail: "price=12.00"},
			{Username: "ann", Action: "order.refund", Subject: "A-2"},
		} {
			e.At = now.Add(time.Duration(i) * time.Minute)
			if err := catalog.RecordAudit(ctx, db, &e); err != nil {
				t.Fatal(err)
			}
		}
		if err := catalog.RecordAudit(ctx, db, &catalog.AuditEntry{Action: "x"}); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("no user: %v", err)
		}
		all, err := catalog.ListAudit(ctx, db, catalog.AuditFilter{})
		if err != nil || len(all) != 3 || all[0].Action != "order.refund" {
			t.Fatalf("all = %+v, %v", all, err)
		}
		orders, _ := catalog.ListAudit(ctx, db, catalog.AuditFilter{Action: "order."})
		bob, _ := catalog.ListAudit(ctx, db, catalog.AuditFilter{Username: "bob"})
		wild, _ := catalog.ListAudit(ctx, db, catalog.AuditFilter{Action: "%"})
		older, _ := catalog.ListAudit(ctx, db, catalog.AuditFilter{Before: all[0].ID, Limit: 1})
		if len(orders) != 2 || len(bob) != 1 || len(wild) != 0 || len(older) != 1 || older[0].ID != all[1].ID {
			t.Errorf("filters: orders %d, bob %d, wildcard %d, older %+v", len(orders), len(bob), len(wild), older)
		}
	})
}
