package catalog

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/uptrace/bun/driver/pgdriver"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// notFound wraps sql.ErrNoRows as ErrNotFound with a description of what
// was looked up; other errors pass through with the same context.
func notFound(err error, format string, args ...any) error {
	what := fmt.Sprintf(format, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("catalog: %s: %w", what, ErrNotFound)
	}
	return fmt.Errorf("catalog: load %s: %w", what, err)
}

// expectOneRow turns an UPDATE/DELETE that touched no row into ErrNotFound.
func expectOneRow(res sql.Result, err error, format string, args ...any) error {
	what := fmt.Sprintf(format, args...)
	if err != nil {
		return fmt.Errorf("catalog: update %s: %w", what, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("catalog: %s: %w", what, ErrNotFound)
	}
	return nil
}

// isUniqueViolation reports whether err is a unique-constraint violation on
// either database.
func isUniqueViolation(err error) bool {
	var pgErr pgdriver.Error
	if errors.As(err, &pgErr) {
		return pgErr.Field('C') == "23505"
	}
	var liteErr *sqlite.Error
	if errors.As(err, &liteErr) {
		code := liteErr.Code()
		return code == sqlite3.SQLITE_CONSTRAINT_UNIQUE || code == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return strings.Contains(err.Error(), "UNIQUE constraint failed")
}
