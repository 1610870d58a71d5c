package team

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// StaffUser is a person who may sign in to the admin panel. Only a bcrypt
// hash of the password is stored (the admin package makes and checks it).
type StaffUser struct {
	bun.BaseModel `bun:"table:staff_users"`

	ID           int64      `bun:"id,pk,autoincrement"`
	Username     string     `bun:"username,notnull"`
	PasswordHash string     `bun:"password_hash,notnull"`
	Role         StaffRole  `bun:"role,notnull"`
	DisabledAt   *time.Time `bun:"disabled_at"`
	CreatedAt    time.Time  `bun:"created_at,notnull"`
	UpdatedAt    time.Time  `bun:"updated_at,notnull"`
}

// FindStaffUser loads a staff user by name; ErrNotFound when there is
// none.
func FindStaffUser(ctx context.Context, db bun.IDB, username string) (*StaffUser, error) {
	u := new(StaffUser)
	if err := db.NewSelect().Model(u).Where("username = ?", username).Scan(ctx); err != nil {
		return nil, catalog.NotFound(err, "staff user %q", username)
	}
	return u, nil
}

// GetStaffUser loads a staff user by id; ErrNotFound when there is none.
func GetStaffUser(ctx context.Context, db bun.IDB, id int64) (*StaffUser, error) {
	u := new(StaffUser)
	if err := db.NewSelect().Model(u).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, catalog.NotFound(err, "staff user %d", id)
	}
	return u, nil
}

// ListStaffUsers returns every staff user by name.
func ListStaffUsers(ctx context.Context, db bun.IDB) ([]StaffUser, error) {
	var us []StaffUser
	if err := db.NewSelect().Model(&us).Order("username").Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: list staff users: %w", err)
	}
	return us, nil
}

// CreateStaffUser adds an agent with the password hash; a user of that
// name existing already (another replica's a moment ago included) is
// ErrConflict and changes nothing.
func CreateStaffUser(ctx context.Context, db bun.IDB, username, passwordHash string, now time.Time) (*StaffUser, error) {
	return CreateStaffUserAs(ctx, db, username, passwordHash, StaffAgent, now)
}

// CreateStaffUserAs is CreateStaffUser with the user's role; an unknown
// role is ErrInvalid.
func CreateStaffUserAs(ctx context.Context, db bun.IDB, username, passwordHash string, role StaffRole, now time.Time) (*StaffUser, error) {
	if !role.Valid() {
		return nil, fmt.Errorf("catalog: create staff user %s: %w: unknown role %q", username, catalog.ErrInvalid, role)
	}
	now = now.UTC()
	u := &StaffUser{Username: username, PasswordHash: passwordHash, Role: role, CreatedAt: now, UpdatedAt: now}
	if _, err := db.NewInsert().Model(u).On("CONFLICT (username) DO NOTHING").Returning("id").Exec(ctx); err != nil {
		return nil, fmt.Errorf("catalog: create staff user %s: %w", username, err)
	}
	if u.ID == 0 {
		return nil, fmt.Errorf("catalog: create staff user %s: %w: the name is taken", username, catalog.ErrConflict)
	}
	return u, nil
}

// SetStaffPassword replaces a user's password hash and ends the sessions
// signed in with the old one.
func SetStaffPassword(ctx context.Context, db bun.IDB, userID int64, passwordHash string, now time.Time) error {
	res, err := db.NewUpdate().Model((*StaffUser)(nil)).Set("password_hash = ?", passwordHash).Set("updated_at = ?", now.UTC()).
		Where("id = ?", userID).Exec(ctx)
	if err := catalog.ExpectOneRow(res, err, "staff user %d", userID); err != nil {
		return err
	}
	if _, err := db.NewDelete().Model((*StaffSession)(nil)).Where("user_id = ?", userID).Exec(ctx); err != nil {
		return fmt.Errorf("catalog: end the sessions of staff user %d: %w", userID, err)
	}
	return nil
}

// DeleteStaffUser removes a staff user (their sessions go with them, by
// the foreign key).
func DeleteStaffUser(ctx context.Context, db bun.IDB, id int64) error {
	res, err := db.NewDelete().Model((*StaffUser)(nil)).Where("id = ?", id).Exec(ctx)
	return catalog.ExpectOneRow(res, err, "staff user %d", id)
}
