package team_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/team"
)

// TestStaffUsers: create, find, list, a taken name is ErrConflict and
// changes nothing, a new password ends the sessions, deleting a user ends
// theirs too.
func TestStaffUsers(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		now := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
		zed, err := team.CreateStaffUser(ctx, db, "zed", "hash-z", now)
		if err != nil || zed.ID == 0 {
			t.Fatalf("create: %+v, %v", zed, err)
		}
		amy, err := team.CreateStaffUser(ctx, db, "amy", "hash-a", now)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := team.CreateStaffUser(ctx, db, "amy", "other", now); !errors.Is(err, catalog.ErrConflict) {
			t.Errorf("second amy: %v, want ErrConflict", err)
		}
		if u, err := team.FindStaffUser(ctx, db, "amy"); err != nil || u.ID != amy.ID || u.PasswordHash != "hash-a" {
			t.Errorf("find amy = %+v, %v; want the first one, unchanged", u, err)
		}
		if _, err := team.FindStaffUser(ctx, db, "nobody"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("find nobody: %v, want ErrNotFound", err)
		}
		if u, err := team.GetStaffUser(ctx, db, zed.ID); err != nil || u.Username != "zed" {
			t.Errorf("get zed = %+v, %v", u, err)
		}
		us, err := team.ListStaffUsers(ctx, db)
		var names []string
		for _, u := range us {
			names = append(names, u.Username)
		}
		if err != nil || !slices.Equal(names, []string{"amy", "zed"}) {
			t.Errorf("list = %v, %v; want amy, zed", names, err)
		}

		session := func(tok string, u *team.StaffUser) {
			t.Helper()
			if err := team.CreateStaffSession(ctx, db, &team.StaffSession{TokenHash: tok, UserID: u.ID, CSRFToken: "c", CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
				t.Fatal(err)
			}
		}
		session("amy-1", amy)
		session("zed-1", zed)
		if err := team.SetStaffPassword(ctx, db, amy.ID, "hash-a2", now); err != nil {
			t.Fatal(err)
		}
		if u, _ := team.FindStaffUser(ctx, db, "amy"); u.PasswordHash != "hash-a2" {
			t.Errorf("password hash = %q, want hash-a2", u.PasswordHash)
		}
		if _, err := team.GetStaffSession(ctx, db, "amy-1"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("amy's session after a new password: %v, want ErrNotFound", err)
		}
		if _, err := team.GetStaffSession(ctx, db, "zed-1"); err != nil {
			t.Errorf("zed's session went too: %v", err)
		}
		if err := team.DeleteStaffUser(ctx, db, zed.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := team.GetStaffSession(ctx, db, "zed-1"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("a deleted user's session: %v, want ErrNotFound", err)
		}
		if err := team.DeleteStaffUser(ctx, db, zed.ID); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("delete twice: %v, want ErrNotFound", err)
		}
		if err := team.SetStaffPassword(ctx, db, zed.ID, "x", now); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("password of a deleted user: %v, want ErrNotFound", err)
		}
	})
}

// TestStaffSessions: a session loads with its user, is touched, deleted
// (twice is fine), and expired ones are swept.
func TestStaffSessions(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		now := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
		u, err := team.CreateStaffUser(ctx, db, "amy", "h", now)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []*team.StaffSession{
			{TokenHash: "live", UserID: u.ID, CSRFToken: "c1", CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(time.Hour)},
			{TokenHash: "old", UserID: u.ID, CSRFToken: "c2", CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(-time.Second)},
		} {
			if err := team.CreateStaffSession(ctx, db, s); err != nil {
				t.Fatal(err)
			}
		}
		s, err := team.GetStaffSession(ctx, db, "live")
		if err != nil || s.User == nil || s.User.Username != "amy" || s.CSRFToken != "c1" {
			t.Fatalf("get = %+v, %v; want amy's session with its user", s, err)
		}
		later := now.Add(5 * time.Minute)
		if err := team.TouchStaffSession(ctx, db, "live", later); err != nil {
			t.Fatal(err)
		}
		if s, _ := team.GetStaffSession(ctx, db, "live"); !s.LastSeenAt.Equal(later) {
			t.Errorf("last seen = %v, want %v", s.LastSeenAt, later)
		}
		if err := team.DeleteExpiredStaffSessions(ctx, db, now); err != nil {
			t.Fatal(err)
		}
		if _, err := team.GetStaffSession(ctx, db, "old"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("expired session after the sweep: %v, want ErrNotFound", err)
		}
		for range 2 {
			if err := team.DeleteStaffSession(ctx, db, "live"); err != nil {
				t.Errorf("delete: %v", err)
			}
		}
		if _, err := team.GetStaffSession(ctx, db, "live"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("deleted session: %v, want ErrNotFound", err)
		}
		if err := team.TouchStaffSession(ctx, db, "live", later); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("touch a deleted session: %v, want ErrNotFound", err)
		}
	})
}
