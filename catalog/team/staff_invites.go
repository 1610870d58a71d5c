package team

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// StaffInvite is a one-time sign-up link for a new staff member with a
// role. Only the SHA-256 of the link's token is stored; the link is shown
// once, when it is made.
type StaffInvite struct {
	bun.BaseModel `bun:"table:staff_invites"`

	ID        int64      `bun:"id,pk,autoincrement"`
	TokenHash string     `bun:"token_hash,notnull"`
	Role      StaffRole  `bun:"role,notnull"`
	CreatedBy *int64     `bun:"created_by"`
	CreatedAt time.Time  `bun:"created_at,notnull"`
	ExpiresAt time.Time  `bun:"expires_at,notnull"`
	UsedAt    *time.Time `bun:"used_at"`
	UsedBy    *int64     `bun:"used_by"`
}

// ErrInviteUnusable is an invitation that is unknown, expired or used.
var ErrInviteUnusable = errors.New("the invitation is unknown, expired or already used")

// CreateStaffInvite stores an invitation (TokenHash, Role, CreatedBy,
// CreatedAt and ExpiresAt set by the caller).
func CreateStaffInvite(ctx context.Context, db bun.IDB, inv *StaffInvite) error {
	if !inv.Role.Valid() || inv.TokenHash == "" || !inv.ExpiresAt.After(inv.CreatedAt) {
		return fmt.Errorf("catalog: create staff invite: %w: role %q, expiry %s", catalog.ErrInvalid, inv.Role, inv.ExpiresAt)
	}
	inv.CreatedAt, inv.ExpiresAt = inv.CreatedAt.UTC(), inv.ExpiresAt.UTC()
	if _, err := db.NewInsert().Model(inv).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("catalog: create staff invite: %w", err)
	}
	return nil
}

// UsableStaffInvite loads the invitation of a token hash when it can still
// be used at now; otherwise ErrInviteUnusable.
func UsableStaffInvite(ctx context.Context, db bun.IDB, tokenHash string, now time.Time) (*StaffInvite, error) {
	inv := new(StaffInvite)
	err := db.NewSelect().Model(inv).Where("token_hash = ?", tokenHash).
		Where("used_at IS NULL").Where("expires_at > ?", now.UTC()).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrInviteUnusable
	}
	if err != nil {
		return nil, fmt.Errorf("catalog: load staff invite: %w", err)
	}
	return inv, nil
}

// AcceptStaffInvite creates the invited user with the invitation's role,
// in one transaction with claiming the invitation: a link signs up one
// person once, even when two replicas race for it. An unusable link is
// ErrInviteUnusable; a taken name is ErrConflict and leaves the link
// usable.
func AcceptStaffInvite(ctx context.Context, db bun.IDB, tokenHash, username, passwordHash string, now time.Time) (*StaffUser, error) {
	var u *StaffUser
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		inv, err := UsableStaffInvite(ctx, tx, tokenHash, now)
		if err != nil {
			return err
		}
		if u, err = CreateStaffUserAs(ctx, tx, username, passwordHash, inv.Role, now); err != nil {
			return err
		}
		res, err := tx.NewUpdate().Model((*StaffInvite)(nil)).Set("used_at = ?", now.UTC()).Set("used_by = ?", u.ID).
			Where("id = ?", inv.ID).Where("used_at IS NULL").Exec(ctx)
		if err != nil {
			return fmt.Errorf("catalog: claim staff invite: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return ErrInviteUnusable
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return u, nil
}

// ListStaffInvites returns the invitations still open at now, newest first.
func ListStaffInvites(ctx context.Context, db bun.IDB, now time.Time) ([]StaffInvite, error) {
	var out []StaffInvite
	err := db.NewSelect().Model(&out).Where("used_at IS NULL").Where("expires_at > ?", now.UTC()).
		Order("created_at DESC", "id DESC").Limit(100).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: list staff invites: %w", err)
	}
	return out, nil
}

// RevokeStaffInvite makes an open invitation unusable (it counts as used,
// by no one).
func RevokeStaffInvite(ctx context.Context, db bun.IDB, id int64, now time.Time) error {
	res, err := db.NewUpdate().Model((*StaffInvite)(nil)).Set("used_at = ?", now.UTC()).
		Where("id = ?", id).Where("used_at IS NULL").Exec(ctx)
	return catalog.ExpectOneRow(res, err, "open staff invite %d", id)
}
