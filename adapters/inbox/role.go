package inbox

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/uptrace/bun"
)

// Role is a job only one replica of a database may do at a time — Telegram
// long polling: two replicas calling getUpdates get 409 Conflict from
// Telegram, each cutting the other's poll short. The replica that holds
// the role's lease does the job and renews the lease every Renew; one that
// dies stops renewing, and another takes the role once the lease has run
// out (For; checked every Renew), so the job moves within For + Renew of
// the holder's death (30 s with the defaults). A replica that stops
// cleanly releases the role at once.
//
// The lease is a row of the inbox table under a source of its own
// ("role:" + name), using the claim columns that every update's lease
// uses (migration 0019): no update of any adapter is ever recorded under
// that source, so Resume, Cover and pruning never see it.
type Role struct {
	db    *bun.DB
	name  string
	lease Lease
}

// roleKey is the key of a role's row.
const roleKey = "lease"

// NewRole returns the role name, leased under l's Holder, For, Renew and
// Now (Sweep is not used).
func NewRole(db *bun.DB, name string, l Lease) (*Role, error) {
	if err := l.defaults(); err != nil {
		return nil, err
	}
	return &Role{db: db, name: name, lease: l}, nil
}

func (r *Role) source() string { return "role:" + r.name }

// Acquire takes or renews the role for this replica: true when it holds
// it until now + For, false when another replica's lease is running.
func (r *Role) Acquire(ctx context.Context) (bool, error) {
	now, err := r.lease.now(ctx, r.db)
	if err != nil {
		return false, fmt.Errorf("inbox: role %s: %w", r.name, err)
	}
	_, err = r.db.NewInsert().Model(&row{Source: r.source(), Key: roleKey, Kind: "role", ReceivedAt: now}).
		On("CONFLICT (source, key) DO NOTHING").Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("inbox: role %s: %w", r.name, err)
	}
	res, err := r.db.NewUpdate().Model((*row)(nil)).
		Set("claimed_by = ?", r.lease.Holder).Set("lease_until = ?", now.Add(r.lease.For)).
		Where("source = ?", r.source()).Where("key = ?", roleKey).
		WhereGroup(" AND ", func(q *bun.UpdateQuery) *bun.UpdateQuery {
			return q.Where("claimed_by = ?", r.lease.Holder).WhereOr("lease_until IS NULL").WhereOr("lease_until < ?", now)
		}).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("inbox: role %s: %w", r.name, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Release gives the role up if this replica holds it.
func (r *Role) Release(ctx context.Context) error {
	_, err := r.db.NewUpdate().Model((*row)(nil)).Set("claimed_by = ''").Set("lease_until = NULL").
		Where("source = ?", r.source()).Where("key = ?", roleKey).Where("claimed_by = ?", r.lease.Holder).Exec(ctx)
	if err != nil {
		return fmt.Errorf("inbox: release role %s: %w", r.name, err)
	}
	return nil
}

// Holder is the replica holding the role, "" when nobody does.
func (r *Role) Holder(ctx context.Context) (string, error) {
	now, err := r.lease.now(ctx, r.db)
	if err != nil {
		return "", fmt.Errorf("inbox: role %s holder: %w", r.name, err)
	}
	var rows []row
	err = r.db.NewSelect().Model(&rows).Where("source = ?", r.source()).Where("key = ?", roleKey).
		Where("lease_until >= ?", now).Scan(ctx)
	if err != nil || len(rows) == 0 {
		return "", err
	}
	return rows[0].ClaimedBy, nil
}

// Do runs job while this replica holds the role, until ctx ends: it tries
// to take the role every Renew; once it holds it, it runs job with a
// context that is cancelled as soon as a renewal fails or finds the role
// taken (job must stop then: another replica may start it), and tries
// again. Do returns job's error when job fails on its own, else nil once
// ctx ends, having released the role.
func (r *Role) Do(ctx context.Context, log *slog.Logger, job func(context.Context) error) error {
	tick := time.NewTicker(r.lease.Renew)
	defer tick.Stop()
	for {
		held, err := r.try(ctx)
		if err != nil && ctx.Err() == nil {
			log.WarnContext(ctx, "role lease not taken", "role", r.name, "err", err)
		}
		if held {
			log.InfoContext(ctx, "role taken: this replica does it", "role", r.name, "holder", r.lease.Holder)
			if err := r.hold(ctx, log, tick.C, job); err != nil || ctx.Err() != nil {
				return err
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// try is Acquire bounded by half a lease: a renewal that hangs must not
// outlast the claim it renews.
func (r *Role) try(ctx context.Context) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, r.lease.For/2)
	defer cancel()
	return r.Acquire(ctx)
}

// hold runs job and renews the role on every tick; it returns when ctx
// ends (nil, the role released), when a renewal fails (nil, job stopped),
// or when job returns by itself (its error, the role released).
func (r *Role) hold(ctx context.Context, log *slog.Logger, tick <-chan time.Time, job func(context.Context) error) error {
	jobCtx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- job(jobCtx) }()
	release := func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := r.Release(rctx); err != nil {
			log.WarnContext(ctx, "role not released; another replica takes it once the lease runs out", "role", r.name, "err", err)
		}
	}
	for {
		select {
		case err := <-done:
			release()
			return err
		case <-ctx.Done():
			stop()
			<-done
			release()
			return nil
		case <-tick:
			held, err := r.try(ctx)
			if held {
				continue
			}
			if ctx.Err() != nil {
				continue // stopping: the ctx.Done case releases
			}
			log.WarnContext(ctx, "role lost: this replica stops doing it", "role", r.name, "err", err)
			stop()
			<-done
			return nil
		}
	}
}
