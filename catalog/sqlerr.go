package catalog

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

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

// NotFound is how catalog reports a lookup that found no row, for the
// packages beside it that query its tables: sql.ErrNoRows becomes
// ErrNotFound with a description of what was looked up ("conversation
// 7"); other errors pass through with the same context.
func NotFound(err error, format string, args ...any) error { return notFound(err, format, args...) }

// ExpectOneRow turns an UPDATE or DELETE that touched no row into
// ErrNotFound, for the packages beside catalog that write its tables.
func ExpectOneRow(res sql.Result, err error, format string, args ...any) error {
	return expectOneRow(res, err, format, args...)
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

// isTxConflict reports whether Postgres aborted a transaction to resolve a
// deadlock or a serialization failure: nothing was written, and running
// the transaction again is the cure.
func isTxConflict(err error) bool {
	var pgErr pgdriver.Error
	if errors.As(err, &pgErr) {
		code := pgErr.Field('C')
		return code == "40P01" || code == "40001"
	}
	return false
}

// Unavailable returns err with ErrUnavailable added to its chain when it
// reports an unreachable or overloaded database rather than a problem with
// the request, so that an edge can answer "try again later" (HTTP 503)
// instead of "something broke"; any other error (and nil) is returned as is.
func Unavailable(err error) error {
	if err == nil || errors.Is(err, ErrUnavailable) || !isUnavailable(err) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrUnavailable, err)
}

func isUnavailable(err error) bool {
	var netErr net.Error
	var pgErr pgdriver.Error
	var liteErr *sqlite.Error
	switch {
	case errors.Is(err, sql.ErrConnDone), errors.Is(err, driver.ErrBadConn),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return true
	case errors.As(err, &netErr):
		return true
	case errors.As(err, &pgErr):
		return pgUnavailable(pgErr.Field('C'))
	case errors.As(err, &liteErr):
		switch liteErr.Code() & 0xff { // the primary result code
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_FULL:
			return true
		}
		return false
	}
	// database/sql's closed-pool error is not exported.
	return strings.Contains(err.Error(), "sql: database is closed")
}

// pgUnavailable reports whether a Postgres SQLSTATE means the server cannot
// serve now rather than that the request was wrong: connection exceptions
// (class 08), insufficient resources (class 53: too many connections, out
// of memory or disk), an administrator's or crash shutdown or a server
// starting (57P01-57P03, cannot_connect_now), the database gone (3D000),
// and 55000 object_not_in_prerequisite_state, which a server shutting
// down, a standby not accepting connections or a database not yet
// accepting them reports.
func pgUnavailable(code string) bool {
	switch code {
	case "57P01", "57P02", "57P03", "57P05", "3D000", "55000":
		return true
	}
	return strings.HasPrefix(code, "08") || strings.HasPrefix(code, "53")
}

// The error vocabulary of the catalog. Functions wrap these with context;
// callers classify with errors.Is.
var (
	ErrNotFound          = errors.New("not found")
	ErrInvalid           = errors.New("invalid input")
	ErrOutOfStock        = errors.New("out of stock")
	ErrEmptyCart         = errors.New("cart is empty")
	ErrIdempotencyKey    = errors.New("idempotency key already used for a different cart")
	ErrInvalidTransition = errors.New("invalid order status change")
	ErrConflict          = errors.New("conflict")
	// ErrUnavailable marks an error of an unreachable or overloaded
	// database (connection refused or lost, closed pool, server shutting
	// down, SQLite busy): nothing was done, a retry later may succeed.
	// Unavailable (sqlerr.go) adds it to an error's chain.
	ErrUnavailable = errors.New("database unavailable")
)
