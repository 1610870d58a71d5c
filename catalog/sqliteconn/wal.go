package sqliteconn

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// walMode puts the database file in WAL mode, once per connection before
// its first use. Switching a file to WAL needs exclusive access, and SQLite
// does not run the busy handler for it: processes opening a fresh file
// together (replicas starting, tests) got SQLITE_BUSY from the switch
// however long busy_timeout was, or found the switch refused. So it is
// retried, with backoff, for as long as a writer would wait. WAL is a
// property of the file: once set, later connections find it and take no
// lock. An in-memory database answers "memory" and stays so.
//
// It does not take the write slot: a connection may be opened for a read
// while this process holds the slot in a transaction.
func walMode(ctx context.Context, conn sqliteConn, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		mode, err := journalMode(ctx, conn)
		if err == nil && (mode == "wal" || mode == "memory") {
			return nil
		}
		if err == nil {
			err = fmt.Errorf("sqlite: journal mode stayed %q: another process holds the file", mode)
		} else if !isBusy(err) {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("sqlite: switch to WAL: %w", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// journalMode asks for WAL and returns the mode the file is in after.
func journalMode(ctx context.Context, conn sqliteConn) (string, error) {
	rows, err := conn.QueryContext(ctx, "PRAGMA journal_mode=WAL", nil)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	row := make([]driver.Value, 1)
	if err := rows.Next(row); err != nil {
		if errors.Is(err, io.EOF) {
			return "", errors.New("sqlite: PRAGMA journal_mode returned no row")
		}
		return "", err
	}
	switch v := row[0].(type) {
	case string:
		return strings.ToLower(v), nil
	case []byte:
		return strings.ToLower(string(v)), nil
	}
	return "", fmt.Errorf("sqlite: PRAGMA journal_mode returned %T", row[0])
}

// isBusy reports SQLITE_BUSY or SQLITE_LOCKED (modernc's errors carry the
// code in their text: "database is locked (5) (SQLITE_BUSY)").
func isBusy(err error) bool {
	s := err.Error()
	return strings.Contains(s, "SQLITE_BUSY") || strings.Contains(s, "SQLITE_LOCKED") || strings.Contains(s, "database is locked")
}
