package sandbox

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"shopbot/catalog"
	"shopbot/migrations"
)

// Template is a migrated SQLite file holding a copy of a shop's catalog,
// closed: it is only ever copied.
type Template struct {
	dir  string
	path string
	// Rows is how many rows of each table were copied.
	Rows map[string]int
	seq  atomic.Int64
}

// Clone creates dir/template.db, migrates it and copies src's catalog
// tables into it (doc.go). dir must exist; the caller removes it.
func Clone(ctx context.Context, src *bun.DB, dir string) (*Template, error) {
	t := &Template{dir: dir, path: filepath.Join(dir, "template.db"), Rows: map[string]int{}}
	if _, err := os.Stat(t.path); err == nil {
		return nil, fmt.Errorf("sandbox: %s exists", t.path)
	}
	dst, _, err := catalog.OpenDB("sqlite:" + t.path)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	err = fill(ctx, src, dst, t.Rows)
	// Closing checkpoints the WAL into the main file, which is then the
	// whole database: what Open copies.
	if cerr := dst.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("sandbox: close template: %w", cerr)
	}
	if err != nil {
		removeDB(t.path)
		return nil, err
	}
	return t, nil
}

func fill(ctx context.Context, src, dst *bun.DB, rows map[string]int) error {
	if _, _, err := migrations.Migrate(ctx, dst); err != nil {
		return fmt.Errorf("sandbox: migrate template: %w", err)
	}
	snap, done, err := snapshot(ctx, src)
	if err != nil {
		return err
	}
	defer done()
	return dst.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		// Categories refer to their parents, which a key order need not
		// put first: references are checked at the commit.
		if _, err := tx.ExecContext(ctx, "PRAGMA defer_foreign_keys = ON"); err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
		for _, tb := range tables {
			n, err := copyTable(ctx, snap, tx, tb)
			if err != nil {
				return err
			}
			rows[tb.name] = n
		}
		return nil
	})
}

// snapshot is where Clone reads src: on Postgres a read-only repeatable
// read transaction, so every table is read as of one moment (no review of
// a product deleted meanwhile). On SQLite the connection itself: a
// transaction there takes the write lock (immediate transactions), which
// would stall the shop's writers for the length of the copy; a product
// deleted during it fails the copy's commit on its foreign key instead.
func snapshot(ctx context.Context, src *bun.DB) (bun.IDB, func(), error) {
	if src.Dialect().Name() != dialect.PG {
		return src, func() {}, nil
	}
	tx, err := src.BeginTx(ctx, &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead})
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox: read the shop: %w", err)
	}
	return tx, func() { _ = tx.Rollback() }, nil
}

// Copy is one user's throwaway copy of the template.
type Copy struct {
	DB   *bun.DB
	path string
}

// Open copies the template to a new file and opens it.
func (t *Template) Open(ctx context.Context) (*Copy, error) {
	path := filepath.Join(t.dir, fmt.Sprintf("copy-%d.db", t.seq.Add(1)))
	if err := copyFile(t.path, path); err != nil {
		removeDB(path)
		return nil, fmt.Errorf("sandbox: copy template: %w", err)
	}
	db, _, err := catalog.OpenDB("sqlite:" + path)
	if err == nil {
		err = db.PingContext(ctx)
	}
	if err != nil {
		if db != nil {
			db.Close()
		}
		removeDB(path)
		return nil, fmt.Errorf("sandbox: open copy: %w", err)
	}
	return &Copy{DB: db, path: path}, nil
}

// Close closes the copy and deletes its files.
func (c *Copy) Close() error {
	err := c.DB.Close()
	removeDB(c.path)
	return err
}

// Remove deletes the template's file. Copies still open stay usable.
func (t *Template) Remove() { removeDB(t.path) }

func copyFile(from, to string) (err error) {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()
	_, err = io.Copy(out, in)
	return err
}

// removeDB deletes an SQLite file with its WAL and shared-memory files.
func removeDB(path string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		_ = os.Remove(path + suffix)
	}
}
