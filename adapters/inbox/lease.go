package inbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/uptrace/bun"
)

// Lease is how the replicas of one database cover for each other: every
// update is claimed by one replica (claimed_by) until lease_until. The
// replica that records an update claims it; it renews its claims every
// Renew while their turns wait in its queue and run, and claims the
// update again, atomically, when its turn starts (Claim), so a turn that
// another replica has taken over is not run twice. A replica that dies
// stops renewing: once the lease has run out, the first replica to sweep
// (every Sweep) claims the update — one UPDATE ... WHERE lease_until <
// now, so exactly one takes it — and runs it through its own chat queue.
// A replica that stops cleanly releases what it holds, so another (or
// itself, restarted) takes it at its next sweep without waiting out the
// lease.
type Lease struct {
	Holder string        // this replica in claimed_by; default host-pid-random
	For    time.Duration // how long a claim holds without renewal (25 s)
	Renew  time.Duration // how often the holder renews (5 s; under For)
	Sweep  time.Duration // how often orphaned updates are claimed (5 s)
	// Now is this replica's clock; default time.Now. Lease times are
	// read and written on the database's clock, so replicas whose own
	// clocks disagree still agree on whose lease has run out: a lease
	// reads the database's clock_timestamp() when it is first used (and
	// again every dbClockEvery) and keeps Now's offset from it (dbclock.go).
	Now func() time.Time

	db *dbClock // the database clock's offset from Now; set by defaults
}

// Default durations of a Lease: an update is taken over at most 30 s
// after its replica died (the lease from the last renewal, plus a sweep),
// and four renewals in a row may fail before a live replica loses one.
const (
	DefaultLease = 25 * time.Second
	DefaultRenew = 5 * time.Second
	DefaultSweep = 5 * time.Second
)

// ErrBadLease reports lease durations that cannot work: the holder must
// renew well before its claims run out.
var ErrBadLease = errors.New("inbox: lease renewal must be shorter than the lease")

func (l *Lease) defaults() error {
	if l.For <= 0 {
		l.For = DefaultLease
	}
	if l.Renew <= 0 {
		l.Renew = min(DefaultRenew, l.For/3)
	}
	if l.Sweep <= 0 {
		l.Sweep = min(DefaultSweep, l.For/3)
	}
	if l.Renew >= l.For {
		return fmt.Errorf("%w (renew every %s, lease %s)", ErrBadLease, l.Renew, l.For)
	}
	if l.Now == nil {
		l.Now = time.Now
	}
	if l.Holder == "" {
		l.Holder = holderName()
	}
	l.db = &dbClock{}
	return nil
}

// holderName names this process: host, pid and a random part, as a pid
// is reused and hosts may share a name.
func holderName() string {
	host, _ := os.Hostname()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b))
}

// NewLeased returns the inbox of source whose updates this replica claims
// under l (see Lease); New's inbox claims nothing.
func NewLeased(ctx context.Context, db *bun.DB, source string, l Lease) (*Inbox, error) {
	if err := l.defaults(); err != nil {
		return nil, err
	}
	if _, err := l.now(ctx, db); err != nil { // the database clock, measured once at the start
		return nil, fmt.Errorf("inbox: %s leases: %w", source, err)
	}
	return newInbox(ctx, db, source, &l), nil
}

// Holder is the name this replica claims updates under ("" without a
// lease).
func (in *Inbox) Holder() string {
	if in.lease == nil {
		return ""
	}
	return in.lease.Holder
}

// expired selects the unhandled updates nobody holds: never claimed,
// released, or whose lease has run out.
func (in *Inbox) expired(q *bun.SelectQuery, now time.Time) *bun.SelectQuery {
	return q.Where("source = ?", in.source).Where("handled_at IS NULL").
		WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("lease_until IS NULL").WhereOr("lease_until < ?", now)
		})
}

// Claim takes the update of key for this replica as its turn starts: it
// reports false, and the turn must not run, when the update is handled or
// another replica holds it. Without a lease every claim succeeds.
func (in *Inbox) Claim(ctx context.Context, key string) (bool, error) {
	if in.lease == nil {
		return true, nil
	}
	now, err := in.lease.now(ctx, in.db)
	if err != nil {
		return false, fmt.Errorf("inbox: claim %s update %s: %w", in.source, key, err)
	}
	res, err := in.db.NewUpdate().Model((*row)(nil)).
		Set("claimed_by = ?", in.lease.Holder).Set("lease_until = ?", now.Add(in.lease.For)).
		Where("source = ?", in.source).Where("key = ?", key).Where("handled_at IS NULL").
		WhereGroup(" AND ", func(q *bun.UpdateQuery) *bun.UpdateQuery {
			return q.Where("claimed_by = ?", in.lease.Holder).WhereOr("lease_until IS NULL").WhereOr("lease_until < ?", now)
		}).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("inbox: claim %s update %s: %w", in.source, key, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ClaimOrphans claims at most limit unhandled updates nobody holds —
// their replica died, or stopped and released them — oldest first, and
// returns them. Two replicas sweeping at once claim disjoint sets: the
// statement re-checks each row's lease as it updates it.
func (in *Inbox) ClaimOrphans(ctx context.Context, limit int) ([]Update, error) {
	if in.lease == nil {
		return nil, errors.New("inbox: ClaimOrphans needs a leased inbox (NewLeased)")
	}
	now, err := in.lease.now(ctx, in.db)
	if err != nil {
		return nil, fmt.Errorf("inbox: claim orphaned %s updates: %w", in.source, err)
	}
	sub := in.expired(in.db.NewSelect().Model((*row)(nil)).Column("key"), now).
		Order("received_at", "key").Limit(int64(limit))
	var rows []row
	err = in.db.NewUpdate().Model(&rows).
		Set("claimed_by = ?", in.lease.Holder).Set("lease_until = ?", now.Add(in.lease.For)).
		Where("source = ?", in.source).Where("handled_at IS NULL").
		WhereGroup(" AND ", func(q *bun.UpdateQuery) *bun.UpdateQuery {
			return q.Where("lease_until IS NULL").WhereOr("lease_until < ?", now)
		}).
		Where("key IN (?)", sub).Returning("*").Scan(ctx)
	if err != nil && !errors.Is(err, errNoRows) {
		return nil, fmt.Errorf("inbox: claim orphaned %s updates: %w", in.source, err)
	}
	return updatesOf(rows), nil
}

// Renew extends the lease of every update this replica holds.
func (in *Inbox) Renew(ctx context.Context) error {
	if in.lease == nil {
		return nil
	}
	now, err := in.lease.now(ctx, in.db)
	if err != nil {
		return fmt.Errorf("inbox: renew %s leases: %w", in.source, err)
	}
	_, err = in.db.NewUpdate().Model((*row)(nil)).Set("lease_until = ?", now.Add(in.lease.For)).
		Where("source = ?", in.source).Where("claimed_by = ?", in.lease.Holder).Where("handled_at IS NULL").Exec(ctx)
	if err != nil {
		return fmt.Errorf("inbox: renew %s leases: %w", in.source, err)
	}
	return nil
}

// Release gives up the update of key (a job the queue refused), so that
// any replica may claim it at its next sweep.
func (in *Inbox) Release(ctx context.Context, key string) error {
	return in.release(ctx, key)
}

// ReleaseAll gives up every update this replica holds: called when it
// stops, so that what it did not finish runs elsewhere, or here after a
// restart, without waiting out the lease.
func (in *Inbox) ReleaseAll(ctx context.Context) error {
	return in.release(ctx, "")
}

func (in *Inbox) release(ctx context.Context, key string) error {
	if in.lease == nil {
		return nil
	}
	q := in.db.NewUpdate().Model((*row)(nil)).Set("claimed_by = ''").Set("lease_until = NULL").
		Where("source = ?", in.source).Where("claimed_by = ?", in.lease.Holder).Where("handled_at IS NULL")
	if key != "" {
		q = q.Where("key = ?", key)
	}
	if _, err := q.Exec(ctx); err != nil {
		return fmt.Errorf("inbox: release %s updates: %w", in.source, err)
	}
	return nil
}

// Cover renews this replica's leases every Renew and claims orphaned
// updates every Sweep, handing each batch to take (oldest first), until
// ctx ends. Failures are logged; the next tick tries again.
func (in *Inbox) Cover(ctx context.Context, log *slog.Logger, take func([]Update)) {
	if in.lease == nil {
		return
	}
	renew, sweep := time.NewTicker(in.lease.Renew), time.NewTicker(in.lease.Sweep)
	defer renew.Stop()
	defer sweep.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-renew.C:
			if err := in.Renew(ctx); err != nil && ctx.Err() == nil {
				log.WarnContext(ctx, "inbox leases not renewed", "source", in.source, "err", err)
			}
		case <-sweep.C:
			rows, err := in.ClaimOrphans(ctx, MaxResume)
			if err != nil && ctx.Err() == nil {
				log.WarnContext(ctx, "inbox orphans not claimed", "source", in.source, "err", err)
			}
			if len(rows) > 0 {
				log.InfoContext(ctx, "inbox updates taken over", "source", in.source, "count", len(rows))
				take(rows)
			}
		}
	}
}
