package catalog

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// AuditEntry is one change made in the panel: who (the user's name is
// copied, so the entry outlives the user), what (an action such as
// "order.status"), on what (the subject: an order number, a product id)
// and the values that mattered (never a password or a token).
type AuditEntry struct {
	bun.BaseModel `bun:"table:audit_log"`

	ID       int64     `bun:"id,pk,autoincrement"`
	At       time.Time `bun:"at,notnull"`
	UserID   *int64    `bun:"user_id"`
	Username string    `bun:"username,notnull"`
	Action   string    `bun:"action,notnull"`
	Subject  string    `bun:"subject,notnull"`
	Detail   string    `bun:"detail,notnull"`
	// Pending marks an entry written before its change ran whose outcome
	// was never confirmed: the process stopped (or the confirmation
	// failed) between the change and its confirmation, so the change may
	// or may not have been made. See BeginAudit.
	Pending bool `bun:"pending,notnull"`
}

// RecordAudit stores an entry; one without a user name or action is
// ErrInvalid.
func RecordAudit(ctx context.Context, db bun.IDB, e *AuditEntry) error {
	if e.Username == "" || e.Action == "" {
		return fmt.Errorf("catalog: record audit entry: %w: user and action are required", ErrInvalid)
	}
	e.At = e.At.UTC()
	if _, err := db.NewInsert().Model(e).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("catalog: record audit entry %s: %w", e.Action, err)
	}
	return nil
}

// BeginAudit stores an entry marked pending before the change it
// describes runs. With ConfirmAudit after a success and DropAudit after
// a refusal, the log is at least once: no change is made without an
// entry, and a crash between the change and the confirmation leaves the
// entry pending (shown as unconfirmed) rather than losing it.
func BeginAudit(ctx context.Context, db bun.IDB, e *AuditEntry) error {
	e.Pending = true
	return RecordAudit(ctx, db, e)
}

// ConfirmAudit marks a pending entry as done; an unknown id is ErrNotFound.
func ConfirmAudit(ctx context.Context, db bun.IDB, id int64) error {
	res, err := db.NewUpdate().Model((*AuditEntry)(nil)).Set("pending = ?", false).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: confirm audit entry %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("catalog: confirm audit entry %d: %w", id, ErrNotFound)
	}
	return nil
}

// DropAudit removes a pending entry whose change was refused (a confirmed
// entry is never removed).
func DropAudit(ctx context.Context, db bun.IDB, id int64) error {
	if _, err := db.NewDelete().Model((*AuditEntry)(nil)).Where("id = ?", id).Where("pending = ?", true).Exec(ctx); err != nil {
		return fmt.Errorf("catalog: drop audit entry %d: %w", id, err)
	}
	return nil
}

// AuditFilter narrows the audit log: by user name and by action prefix
// ("order." for every order change); Before pages back (entries with a
// smaller id); Limit is 50 when unset, at most 200.
type AuditFilter struct {
	Username string
	Action   string
	Before   int64
	Limit    int
}

// ListAudit returns entries newest first.
func ListAudit(ctx context.Context, db bun.IDB, f AuditFilter) ([]AuditEntry, error) {
	if f.Limit <= 0 {
		f.Limit = 50
	}
	f.Limit = min(f.Limit, 200)
	var out []AuditEntry
	q := db.NewSelect().Model(&out).Order("id DESC").Limit(int64(f.Limit))
	if f.Username != "" {
		q = q.Where("username = ?", f.Username)
	}
	if f.Action != "" {
		q = q.Where("action LIKE ? ESCAPE '\\'", strings.TrimPrefix(LikePattern(f.Action), "%"))
	}
	if f.Before > 0 {
		q = q.Where("id < ?", f.Before)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: list audit log: %w", err)
	}
	return out, nil
}
