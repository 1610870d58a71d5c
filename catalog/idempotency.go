package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Idempotency keys a client sent with a request (the web chat's
// Idempotency-Key) are remembered in idempotency_keys per scope (the chat)
// until they expire, so a request replayed long after its first answer is
// still recognised, whichever replica receives it.

type idemKey struct {
	bun.BaseModel `bun:"table:idempotency_keys"`
	Scope         string `bun:"scope,pk"`
	Key           string `bun:"key,pk"`
	ExpiresAt     int64  `bun:"expires_at"`
}

// maxIdemKey bounds a scope or a key.
const maxIdemKey = 200

// KeySeen reports whether key is remembered in scope and not expired at
// now.
func KeySeen(ctx context.Context, db bun.IDB, scope, key string, now time.Time) (bool, error) {
	var exp int64
	err := db.NewSelect().TableExpr("idempotency_keys").Column("expires_at").
		Where("scope = ? AND key = ?", scope, key).Scan(ctx, &exp)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("catalog: look up idempotency key: %w", err)
	}
	return exp > now.UnixMilli(), nil
}

// RememberKey remembers key in scope until expires (a key remembered
// already gets the later expiry).
func RememberKey(ctx context.Context, db bun.IDB, scope, key string, expires time.Time) error {
	if scope == "" || key == "" || len(scope) > maxIdemKey || len(key) > maxIdemKey {
		return fmt.Errorf("catalog: remember idempotency key: %w: scope and key of 1 to %d bytes required", ErrInvalid, maxIdemKey)
	}
	row := &idemKey{Scope: scope, Key: key, ExpiresAt: expires.UnixMilli()}
	_, err := db.NewInsert().Model(row).
		On("CONFLICT (scope, key) DO UPDATE").Set("expires_at = EXCLUDED.expires_at").Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: remember idempotency key: %w", err)
	}
	return nil
}

// PruneKeys deletes the keys expired before now.
func PruneKeys(ctx context.Context, db bun.IDB, now time.Time) (int64, error) {
	res, err := db.NewDelete().TableExpr("idempotency_keys").Where("expires_at < ?", now.UnixMilli()).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: prune idempotency keys: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// IdempotencyKeys remembers keys for TTL in DB: the store an edge that
// accepts client keys uses (the web chat, wired in bot/). Now defaults to
// time.Now. Errors of an unreachable database carry ErrUnavailable.
type IdempotencyKeys struct {
	DB     bun.IDB
	TTL    time.Duration
	Now    func() time.Time
	pruner LimitPruner
}

func (k *IdempotencyKeys) now() time.Time {
	if k.Now != nil {
		return k.Now()
	}
	return time.Now()
}

// Seen reports whether key was remembered in scope within TTL.
func (k *IdempotencyKeys) Seen(ctx context.Context, scope, key string) (bool, error) {
	seen, err := KeySeen(ctx, k.DB, scope, key, k.now())
	return seen, Unavailable(err)
}

// Remember remembers key in scope for TTL from now, and now and then
// prunes expired keys (and the other expiring counters).
func (k *IdempotencyKeys) Remember(ctx context.Context, scope, key string) error {
	now := k.now()
	if err := RememberKey(ctx, k.DB, scope, key, now.Add(k.TTL)); err != nil {
		return Unavailable(err)
	}
	return Unavailable(k.pruner.Maybe(ctx, k.DB, now))
}
