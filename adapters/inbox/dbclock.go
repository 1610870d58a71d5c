package inbox

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// dbClockEvery is how often, by the replica's clock, a lease measures the
// database clock again: often enough to follow a replica clock that is
// stepped or drifts, rarely enough to cost nothing.
const dbClockEvery = 6 * time.Hour

// dbClock is the offset of the database's clock from a replica's (Lease.Now).
// Every replica of a Postgres database compares and writes lease times on
// the one clock they share, the server's, so a replica whose own clock
// runs ahead neither takes a live lease early nor keeps a dead one alive
// (and one behind does not lose its own). Reading the server's clock
// with every statement would add a round trip to each claim; the offset
// is measured once (the midpoint of the replica's clock around the read)
// and applied to Now. SQLite serves one process, whose clock is the
// database's: the offset is zero.
type dbClock struct {
	mu     sync.Mutex
	offset time.Duration
	at     time.Time // Now when measured; zero: not yet
}

// now is the database's time, by the replica's clock and its offset.
func (l *Lease) now(ctx context.Context, db bun.IDB) (time.Time, error) {
	c := l.db
	c.mu.Lock()
	defer c.mu.Unlock()
	local := l.Now()
	if c.at.IsZero() || local.Sub(c.at) >= dbClockEvery || local.Before(c.at) {
		off, err := measureOffset(ctx, db, l.Now)
		if err != nil {
			return time.Time{}, fmt.Errorf("read the database clock: %w", err)
		}
		c.offset, c.at = off, local
	}
	return local.Add(c.offset).UTC(), nil
}

// measureOffset reads the database's clock and returns how far it is
// ahead of now (behind: negative).
func measureOffset(ctx context.Context, db bun.IDB, now func() time.Time) (time.Duration, error) {
	if db.Dialect().Name() != dialect.PG {
		return 0, nil
	}
	before := now()
	var server time.Time
	if err := db.NewRaw("SELECT clock_timestamp()").Scan(ctx, &server); err != nil {
		return 0, err
	}
	after := now()
	return server.Sub(before.Add(after.Sub(before) / 2)), nil
}
