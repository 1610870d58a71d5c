package main

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/demo"
	"shopbot/migrations"
)

// prepareWithRetry prepares the database, retrying with backoff while it is
// unreachable. A schema newer than the binary and invalid input (such as
// an ADMIN_PASSWORD of the wrong length) are fatal.
func prepareWithRetry(ctx context.Context, db *bun.DB, log *slog.Logger, withDemo bool, steps ...migrations.Step) (loaded int, err error) {
	delay := 500 * time.Millisecond
	for {
		loaded, err = prepare(ctx, db, withDemo, steps...)
		if err == nil || errors.Is(err, migrations.ErrSchemaTooNew) || errors.Is(err, catalog.ErrInvalid) || ctx.Err() != nil {
			return loaded, err
		}
		log.WarnContext(ctx, "database not ready, retrying", "err", err, "retry_in", delay)
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(delay):
		}
		delay = min(2*delay, 30*time.Second)
	}
}

// prepare is a start's database work, under the migration lock so that
// processes starting together on one database do it once: migrations, the
// demo catalog into a database without products that never had it (one
// transaction: an interrupted load leaves nothing behind; DEMO=false
// skips it, and a demo removed is never loaded again), then steps (serve
// adds the admin user). loaded is the number of demo products this call
// loaded.
func prepare(ctx context.Context, db *bun.DB, withDemo bool, steps ...migrations.Step) (loaded int, err error) {
	seed := func(ctx context.Context, db bun.IDB) (err error) {
		if !withDemo {
			return demo.Adopt(ctx, db) // a demo loaded by an older shopbot can still be removed
		}
		loaded, err = demo.Seed(ctx, db)
		return err
	}
	if _, _, err := migrations.Setup(ctx, db, append([]migrations.Step{seed}, steps...)...); err != nil {
		return 0, err
	}
	return loaded, nil
}
