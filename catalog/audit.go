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
		q = q.Where("action LIKE ? ESCAPE '\\'", strings.TrimPrefix(likePattern(f.Action), "%"))
	}
	if f.Before > 0 {
		q = q.Where("id < ?", f.Before)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: list audit log: %w", err)
	}
	return out, nil
}
