package migrations

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"shopbot/catalog/sqliteconn"
)

//go:embed postgres/*.sql sqlite/*.sql
var files embed.FS

// ErrSchemaTooNew reports a database migrated by a newer shopbot.
var ErrSchemaTooNew = errors.New("database schema is newer than this shopbot")

// advisoryLockKey is the Postgres advisory lock that serializes migrations
// ("shopbot" in ASCII, so it is recognisable in pg_locks).
const advisoryLockKey = 0x73686f70626f74

// Migration is one schema version.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Status is where a database stands.
type Status struct {
	Current int // highest applied version, 0 for an empty database
	Latest  int // highest version this binary knows
}

// UpToDate reports whether the database is at the binary's version.
func (s Status) UpToDate() bool { return s.Current == s.Latest }

type schemaMigration struct {
	bun.BaseModel `bun:"table:schema_migrations"`

	Version   int       `bun:"version,pk"`
	Name      string    `bun:"name,notnull"`
	AppliedAt time.Time `bun:"applied_at,notnull"`
}

// List returns the embedded migrations for a dialect, ordered by version.
func List(d dialect.Name) ([]Migration, error) {
	dir, err := dirFor(d)
	if err != nil {
		return nil, err
	}
	entries, err := fs.ReadDir(files, dir)
	if err != nil {
		return nil, fmt.Errorf("migrations: read %s: %w", dir, err)
	}
	var out []Migration
	for _, e := range entries {
		m, err := parseFile(dir, e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	for i, m := range out {
		if m.Version != i+1 {
			return nil, fmt.Errorf("migrations: %s: expected version %d, found %d", dir, i+1, m.Version)
		}
	}
	return out, nil
}

func dirFor(d dialect.Name) (string, error) {
	switch d {
	case dialect.PG:
		return "postgres", nil
	case dialect.SQLite:
		return "sqlite", nil
	}
	return "", fmt.Errorf("migrations: unsupported dialect %s", d)
}

func parseFile(dir, name string) (Migration, error) {
	num, rest, ok := strings.Cut(strings.TrimSuffix(name, ".sql"), "_")
	version, err := strconv.Atoi(num)
	if !ok || err != nil || version <= 0 {
		return Migration{}, fmt.Errorf("migrations: %s/%s: name must be NNNN_name.sql", dir, name)
	}
	body, err := files.ReadFile(path.Join(dir, name))
	if err != nil {
		return Migration{}, fmt.Errorf("migrations: %w", err)
	}
	return Migration{Version: version, Name: rest, SQL: string(body)}, nil
}

// Check reports the database's schema status without changing anything. It
// fails with ErrSchemaTooNew when the database is ahead of the binary.
func Check(ctx context.Context, db bun.IDB) (Status, error) {
	known, err := List(db.Dialect().Name())
	if err != nil {
		return Status{}, err
	}
	st := Status{Latest: len(known)}
	exists, err := tableExists(ctx, db)
	if err != nil || !exists {
		return st, err
	}
	if err := db.NewSelect().Model((*schemaMigration)(nil)).
		ColumnExpr("COALESCE(MAX(version), 0)").Scan(ctx, &st.Current); err != nil {
		return st, fmt.Errorf("migrations: read version: %w", err)
	}
	if st.Current > st.Latest {
		return st, fmt.Errorf("%w: the database is at version %d, this binary knows up to %d; upgrade shopbot",
			ErrSchemaTooNew, st.Current, st.Latest)
	}
	return st, nil
}

func tableExists(ctx context.Context, db bun.IDB) (bool, error) {
	var n int
	var err error
	switch db.Dialect().Name() {
	case dialect.PG:
		err = db.NewRaw("SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?",
			"schema_migrations").Scan(ctx, &n)
	default:
		err = db.NewRaw("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
			"schema_migrations").Scan(ctx, &n)
	}
	if err != nil {
		return false, fmt.Errorf("migrations: inspect schema: %w", err)
	}
	return n > 0, nil
}

// Migrate applies every pending migration under the migration lock and
// returns the status before and after.
func Migrate(ctx context.Context, db *bun.DB) (from Status, to Status, err error) {
	return Setup(ctx, db)
}

// Step is first-start work that must happen once per database, such as
// loading the demo catalog or creating the owner's account. Every process
// runs every step at every start, one process at a time, so a step checks
// whether its work is done (through db, the handle it is given) and then
// does nothing.
type Step func(ctx context.Context, db bun.IDB) error

// Setup applies every pending migration and then runs steps in order, all
// under the migration lock, so processes starting together on one database
// do first-start work once: the others wait and find it done. It returns
// the schema status before and after.
//
// On Postgres the lock is a session advisory lock and the steps get db
// itself (each makes its own transactions). On SQLite, whose processes
// share no advisory lock, everything runs in one immediate transaction,
// which holds the file's write lock across processes until it ends: the
// steps get that transaction, and a failure leaves the database as it was.
func Setup(ctx context.Context, db *bun.DB, steps ...Step) (from Status, to Status, err error) {
	err = withLock(ctx, db, func(ctx context.Context, db bun.IDB) error {
		if from, to, err = migrate(ctx, db); err != nil {
			return err
		}
		for _, step := range steps {
			if err := step(ctx, db); err != nil {
				return err
			}
		}
		return nil
	})
	return from, to, err
}

// migrate applies the pending migrations; the caller holds the lock.
func migrate(ctx context.Context, db bun.IDB) (from Status, to Status, err error) {
	if _, err := db.NewCreateTable().Model((*schemaMigration)(nil)).IfNotExists().Exec(ctx); err != nil {
		return from, to, fmt.Errorf("migrations: create schema_migrations: %w", err)
	}
	from, err = Check(ctx, db)
	if err != nil {
		return from, from, err
	}
	known, err := List(db.Dialect().Name())
	if err != nil {
		return from, from, err
	}
	for _, m := range known[from.Current:] {
		if err := apply(ctx, db, m); err != nil {
			return from, to, err
		}
	}
	to, err = Check(ctx, db)
	return from, to, err
}

func apply(ctx context.Context, db bun.IDB, m Migration) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		// Another process may have applied it since we looked (a safeguard:
		// the lock already serializes this check).
		applied, err := tx.NewSelect().Model((*schemaMigration)(nil)).Where("version = ?", m.Version).Exists(ctx)
		if err != nil || applied {
			return err
		}
		row := &schemaMigration{Version: m.Version, Name: m.Name, AppliedAt: time.Now().UTC()}
		if _, err := tx.NewInsert().Model(row).Exec(ctx); err != nil {
			return fmt.Errorf("migrations: record %04d_%s: %w", m.Version, m.Name, err)
		}
		for _, stmt := range statements(m.SQL) {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("migrations: apply %04d_%s: %w", m.Version, m.Name, err)
			}
		}
		return nil
	})
}

// statements splits a migration file on semicolons that end a line,
// outside a $$-quoted function body (whose own statements end lines too).
// The schema files keep to that convention.
func statements(sqlText string) []string {
	var out []string
	var cur strings.Builder
	inBody := false
	for _, line := range strings.Split(sqlText, "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "--") {
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
		if strings.Count(line, "$$")%2 == 1 {
			inBody = !inBody
		}
		if !inBody && strings.HasSuffix(trimmed, ";") {
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		}
	}
	if s := strings.TrimSpace(cur.String()); s != "" {
		out = append(out, s)
	}
	return out
}

// withLock runs fn under the migration lock. On Postgres it is a session
// advisory lock held on a dedicated connection (the server releases it if
// the process dies) and fn gets db. On SQLite it is an immediate
// transaction, which takes the file's write lock at BEGIN (the catalog
// opens SQLite with _txlock=immediate; other processes wait busy_timeout
// for it), and fn gets that transaction.
func withLock(ctx context.Context, db *bun.DB, fn func(ctx context.Context, db bun.IDB) error) error {
	if db.Dialect().Name() != dialect.PG {
		// Migrating many versions can hold the write lock longer than a
		// writer waits for it (busy_timeout, the write slot): a process
		// starting meanwhile waits again, up to sqliteLockWait.
		// Only a wait at BEGIN is retried, never a failure of fn's own.
		for start := time.Now(); ; {
			began := false
			err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { began = true; return fn(ctx, tx) })
			if err == nil || began || !sqliteLocked(err) || ctx.Err() != nil || time.Since(start) > sqliteLockWait {
				return err
			}
		}
	}
	unlock, err := advisoryLock(ctx, db)
	if err != nil {
		return err
	}
	defer unlock()
	return fn(ctx, db)
}

// sqliteLockWait bounds how long a SQLite migration waits for another
// one to finish.
const sqliteLockWait = 5 * time.Minute

// sqliteLocked reports whether err is a wait for SQLite's write lock that
// ran out: this process's write slot, or another process's lock
// (SQLITE_BUSY after busy_timeout).
func sqliteLocked(err error) bool {
	return errors.Is(err, sqliteconn.ErrWriteSlot) || strings.Contains(err.Error(), "database is locked")
}

// advisoryLock takes the Postgres advisory lock on a dedicated connection.
func advisoryLock(ctx context.Context, db *bun.DB) (func(), error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrations: connect: %w", err)
	}
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(?)", advisoryLockKey); err != nil {
		conn.Close()
		return nil, fmt.Errorf("migrations: take lock: %w", err)
	}
	return func() {
		// A fresh context: the unlock must run even when ctx is cancelled.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		// Closing the connection releases the lock even if the unlock fails.
		_, _ = conn.ExecContext(ctx, "SELECT pg_advisory_unlock(?)", advisoryLockKey)
		_ = conn.Close()
	}, nil
}
