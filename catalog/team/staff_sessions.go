package team

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// StaffSession is a signed-in browser of the admin panel, stored by the
// SHA-256 of its cookie's token (a leaked database signs no one in).
type StaffSession struct {
	bun.BaseModel `bun:"table:staff_sessions"`

	TokenHash  string     `bun:"token_hash,pk"`
	UserID     int64      `bun:"user_id,notnull"`
	User       *StaffUser `bun:"rel:belongs-to,join:user_id=id"`
	CSRFToken  string     `bun:"csrf_token,notnull"`
	CreatedAt  time.Time  `bun:"created_at,notnull"`
	LastSeenAt time.Time  `bun:"last_seen_at,notnull"`
	ExpiresAt  time.Time  `bun:"expires_at,notnull"`
}

// CreateStaffSession stores a new session.
func CreateStaffSession(ctx context.Context, db bun.IDB, s *StaffSession) error {
	if _, err := db.NewInsert().Model(s).Exec(ctx); err != nil {
		return fmt.Errorf("catalog: create staff session: %w", err)
	}
	return nil
}

// GetStaffSession loads a session with its user by token hash;
// ErrNotFound when there is none.
func GetStaffSession(ctx context.Context, db bun.IDB, tokenHash string) (*StaffSession, error) {
	s := new(StaffSession)
	if err := db.NewSelect().Model(s).Relation("User").Where("token_hash = ?", tokenHash).Scan(ctx); err != nil {
		return nil, catalog.NotFound(err, "staff session")
	}
	return s, nil
}

// TouchStaffSession records that the session was used at now.
func TouchStaffSession(ctx context.Context, db bun.IDB, tokenHash string, now time.Time) error {
	res, err := db.NewUpdate().Model((*StaffSession)(nil)).Set("last_seen_at = ?", now.UTC()).Where("token_hash = ?", tokenHash).Exec(ctx)
	return catalog.ExpectOneRow(res, err, "staff session")
}

// DeleteStaffSession ends a session; one already gone is no error.
func DeleteStaffSession(ctx context.Context, db bun.IDB, tokenHash string) error {
	if _, err := db.NewDelete().Model((*StaffSession)(nil)).Where("token_hash = ?", tokenHash).Exec(ctx); err != nil {
		return fmt.Errorf("catalog: delete staff session: %w", err)
	}
	return nil
}

// DeleteExpiredStaffSessions forgets the sessions expired before now.
func DeleteExpiredStaffSessions(ctx context.Context, db bun.IDB, now time.Time) error {
	if _, err := db.NewDelete().Model((*StaffSession)(nil)).Where("expires_at < ?", now.UTC()).Exec(ctx); err != nil {
		return fmt.Errorf("catalog: delete expired staff sessions: %w", err)
	}
	return nil
}
