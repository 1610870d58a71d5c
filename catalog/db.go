package catalog

import (
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/driver/pgdriver"
	"modernc.org/sqlite" // the pure-Go SQLite driver

	"shopbot/catalog/clip"
	"shopbot/catalog/sqliteconn"
)

// DBInfo describes an opened database for startup output and logs; it never
// holds a password.
type DBInfo struct {
	Kind     string // "postgres" or "sqlite"
	Location string // host:port/dbname or the SQLite file path
}

func (i DBInfo) String() string { return i.Kind + " (" + i.Location + ")" }

// ParseDatabaseURL validates a DATABASE_URL without connecting. It accepts
// postgres://… / postgresql://… and sqlite:PATH (sqlite://PATH also works).
func ParseDatabaseURL(raw string) (DBInfo, error) {
	switch {
	case strings.HasPrefix(raw, "sqlite:"):
		p := strings.TrimPrefix(strings.TrimPrefix(raw, "sqlite:"), "//")
		if i := strings.IndexByte(p, '?'); i >= 0 {
			p = p[:i]
		}
		if p == "" {
			return DBInfo{}, fmt.Errorf("DATABASE_URL %q: missing file path, use sqlite:PATH such as sqlite:shopbot.db", raw)
		}
		return DBInfo{Kind: "sqlite", Location: p}, nil
	case strings.HasPrefix(raw, "postgres://"), strings.HasPrefix(raw, "postgresql://"):
		u, err := url.Parse(raw)
		if err != nil {
			return DBInfo{}, fmt.Errorf("DATABASE_URL: not a valid postgres URL: %v", redactURLError(err))
		}
		if u.Host == "" {
			return DBInfo{}, fmt.Errorf("DATABASE_URL: missing host, use postgres://user:password@host:5432/dbname")
		}
		return DBInfo{Kind: "postgres", Location: u.Host + u.Path}, nil
	}
	return DBInfo{}, fmt.Errorf("DATABASE_URL must start with postgres:// or sqlite: (got %q)", redactScheme(raw))
}

// OpenDB opens the database named by a DATABASE_URL. It does not connect:
// the first query does, so an unreachable server surfaces as errors from
// queries (and a failing /readyz), not here.
func OpenDB(raw string) (*bun.DB, DBInfo, error) {
	info, err := ParseDatabaseURL(raw)
	if err != nil {
		return nil, info, err
	}
	if info.Kind == "sqlite" {
		return openSQLite(raw, info)
	}
	// Connecting fails fast; a query may take as long as its context
	// allows (a large import, a slow report), bounded by generous socket
	// timeouts so a vanished server cannot hang a request forever.
	connector := pgdriver.NewConnector(pgdriver.WithDSN(raw), pgdriver.WithDialTimeout(5*time.Second),
		pgdriver.WithReadTimeout(2*time.Minute), pgdriver.WithWriteTimeout(30*time.Second))
	sqldb := sql.OpenDB(connector)
	// As many idle as open: with fewer, a burst's extra connections were
	// closed as soon as they were returned and opened again by the next
	// burst (a backend process started, authenticated and its prepared
	// statements made anew each time).
	sqldb.SetMaxOpenConns(20)
	sqldb.SetMaxIdleConns(20)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	return bun.NewDB(sqldb, pgdialect.New()), info, nil
}

// sqliteBusyTimeout is how long a writer waits for the write lock, held by
// another process (busy_timeout) or by this one (sqliteconn's write slot).
const sqliteBusyTimeout = 10 * time.Second

func openSQLite(raw string, info DBInfo) (*bun.DB, DBInfo, error) {
	q := url.Values{}
	if i := strings.IndexByte(raw, '?'); i >= 0 {
		parsed, err := url.ParseQuery(raw[i+1:])
		if err != nil {
			return nil, info, fmt.Errorf("DATABASE_URL: bad sqlite options: %w", err)
		}
		q = parsed
	}
	// WAL lets readers run beside the writer. synchronous=NORMAL is WAL's
	// recommended setting: a commit survives a crash of the process (what
	// acknowledging a platform update needs) but the last commits can be
	// lost if the machine itself loses power; FULL would fsync every commit
	// and cap a chat at a few hundred turns a second. Deployments that need
	// power-loss durability run on Postgres. Immediate transactions take
	// the write lock at BEGIN, so two writers queue (busy_timeout) instead
	// of failing halfway through with SQLITE_BUSY.
	// WAL itself is set by sqliteconn when a connection opens, with
	// retries: the switch ignores busy_timeout (sqliteconn/wal.go).
	for _, p := range []string{fmt.Sprintf("busy_timeout(%d)", sqliteBusyTimeout.Milliseconds()), "foreign_keys(1)", "synchronous(NORMAL)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	dsn := "file:" + filepath.ToSlash(info.Location) + "?" + q.Encode()
	connector, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, info, fmt.Errorf("open sqlite %s: %w", info.Location, err)
	}
	sqldb := sql.OpenDB(sqliteconn.NewConnector(connector, sqliteBusyTimeout))
	sqldb.SetMaxOpenConns(8)
	sqldb.SetMaxIdleConns(8)
	sqldb.SetConnMaxIdleTime(0)
	return bun.NewDB(sqldb, sqlitedialect.New()), info, nil
}

// redactURLError keeps url.Parse errors from echoing a password.
func redactURLError(err error) string {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err.Error()
	}
	return "malformed URL"
}

func redactScheme(raw string) string {
	if i := strings.Index(raw, "://"); i >= 0 {
		return raw[:i+3] + "…"
	}
	if len(raw) > 20 {
		return clip.Bytes(raw, 20) + "…"
	}
	return raw
}
