package team

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// StaffRole is what a staff user may do in the panel: the admin package's
// route table says which routes each role may use.
type StaffRole string

// The staff roles, from most to least trusted.
const (
	StaffOwner   StaffRole = "owner"   // everything, settings and staff included
	StaffManager StaffRole = "manager" // catalog, orders, conversations
	StaffAgent   StaffRole = "agent"   // conversations; orders read-only
)

// StaffRoles lists the roles, most trusted first.
var StaffRoles = []StaffRole{StaffOwner, StaffManager, StaffAgent}

// Valid reports whether r is one of StaffRoles.
func (r StaffRole) Valid() bool {
	return r == StaffOwner || r == StaffManager || r == StaffAgent
}

// Disabled reports whether the user may no longer sign in.
func (u *StaffUser) Disabled() bool { return u.DisabledAt != nil }

// SetStaffRole changes a user's role; an unknown role is ErrInvalid, an
// unknown user ErrNotFound.
func SetStaffRole(ctx context.Context, db bun.IDB, userID int64, role StaffRole, now time.Time) error {
	if !role.Valid() {
		return fmt.Errorf("catalog: set role of staff user %d: %w: unknown role %q", userID, catalog.ErrInvalid, role)
	}
	res, err := db.NewUpdate().Model((*StaffUser)(nil)).Set("role = ?", role).Set("updated_at = ?", now.UTC()).
		Where("id = ?", userID).Exec(ctx)
	return catalog.ExpectOneRow(res, err, "staff user %d", userID)
}

// SetStaffDisabled disables a user (ending their sessions at once) or
// enables them again. An unknown user is ErrNotFound.
func SetStaffDisabled(ctx context.Context, db bun.IDB, userID int64, disabled bool, now time.Time) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		q := tx.NewUpdate().Model((*StaffUser)(nil)).Set("updated_at = ?", now.UTC()).Where("id = ?", userID)
		if disabled {
			q = q.Set("disabled_at = ?", now.UTC())
		} else {
			q = q.Set("disabled_at = NULL")
		}
		res, err := q.Exec(ctx)
		if err := catalog.ExpectOneRow(res, err, "staff user %d", userID); err != nil || !disabled {
			return err
		}
		if _, err := tx.NewDelete().Model((*StaffSession)(nil)).Where("user_id = ?", userID).Exec(ctx); err != nil {
			return fmt.Errorf("catalog: end the sessions of staff user %d: %w", userID, err)
		}
		return nil
	})
}
