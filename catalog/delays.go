package catalog

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// Delays (the signin_delays table) slow down guessing one key — a user
// name, a known device — without ever locking it: an attempt claims the
// key, which makes the next attempt wait Base, then twice that, and so on
// up to Max. The claim is one atomic upsert that succeeds only when the
// key's wait is over, so however many replicas evaluate attempts at once,
// one attempt per wait gets through. A claim refused during the wait
// changes nothing: hammering a key does not lengthen its wait. A success
// clears the key (ClearDelay); a key left alone for Forget starts again
// at Base.

// Backoff is how a key's wait grows.
type Backoff struct {
	Base, Max time.Duration
	// Forget is how long after its last attempt a key starts again at
	// Base.
	Forget time.Duration
}

// DelayClaim is the outcome of claiming a key.
type DelayClaim struct {
	Allowed bool
	// Wait is, when refused, how long until the key may be claimed.
	Wait time.Duration
	// Attempts counts the attempts since the key was last cleared or
	// forgotten, this one included (0 when refused).
	Attempts int
}

// claimSQL claims a key whose wait is over; {min} is the dialect's
// two-argument minimum. $1 key, $2 now, $3 base, $4 max, $5 expires.
const claimSQL = `INSERT INTO signin_delays (key, failures, delay_ms, not_before, expires_at)
	VALUES ($1, 1, CAST($3 AS BIGINT), CAST($2 AS BIGINT) + CAST($3 AS BIGINT), CAST($5 AS BIGINT))
	ON CONFLICT (key) DO UPDATE SET
	failures = CASE WHEN signin_delays.expires_at <= CAST($2 AS BIGINT) THEN 1 ELSE signin_delays.failures + 1 END,
	delay_ms = CASE WHEN signin_delays.expires_at <= CAST($2 AS BIGINT) THEN CAST($3 AS BIGINT)
		ELSE %[1]s(signin_delays.delay_ms * 2, CAST($4 AS BIGINT)) END,
	not_before = CAST($2 AS BIGINT) + CASE WHEN signin_delays.expires_at <= CAST($2 AS BIGINT) THEN CAST($3 AS BIGINT)
		ELSE %[1]s(signin_delays.delay_ms * 2, CAST($4 AS BIGINT)) END,
	expires_at = CAST($5 AS BIGINT)
	WHERE signin_delays.not_before <= CAST($2 AS BIGINT) OR signin_delays.expires_at <= CAST($2 AS BIGINT)
	RETURNING failures`

var (
	claimSQLPostgres = fmt.Sprintf(claimSQL, "LEAST")
	claimSQLSQLite   = fmt.Sprintf(claimSQL, "MIN")
)

// ClaimDelay claims key at now: allowed when the key's wait is over (the
// next claim then waits longer), else refused with the time left.
func ClaimDelay(ctx context.Context, db bun.IDB, key string, b Backoff, now time.Time) (DelayClaim, error) {
	if key == "" || len(key) > maxLimitKey || b.Base < time.Millisecond || b.Max < b.Base || b.Forget < b.Max {
		return DelayClaim{}, fmt.Errorf("catalog: claim %q: %w: key of 1 to %d bytes and 0 < base <= max <= forget required",
			key, ErrInvalid, maxLimitKey)
	}
	ms := now.UnixMilli()
	query := claimSQLPostgres
	if db.Dialect().Name() == dialect.SQLite {
		query = claimSQLSQLite
	}
	var attempts int
	err := selectValues(ctx, db, query, []any{key, ms, b.Base.Milliseconds(), b.Max.Milliseconds(), ms + b.Forget.Milliseconds()}, &attempts)
	if err == nil {
		return DelayClaim{Allowed: true, Attempts: attempts}, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return DelayClaim{}, fmt.Errorf("catalog: claim %s: %w", key, err)
	}
	var notBefore int64
	err = db.NewSelect().TableExpr("signin_delays").Column("not_before").Where("key = ?", key).Scan(ctx, &notBefore)
	if errors.Is(err, sql.ErrNoRows) {
		notBefore = ms + 1 // cleared a moment ago: try again at once
	} else if err != nil {
		return DelayClaim{}, fmt.Errorf("catalog: claim %s: %w", key, err)
	}
	return DelayClaim{Wait: time.Duration(max(notBefore-ms, 1)) * time.Millisecond}, nil
}

// ClearDelay forgets key's attempts (after a success).
func ClearDelay(ctx context.Context, db bun.IDB, key string) error {
	if _, err := db.NewDelete().TableExpr("signin_delays").Where("key = ?", key).Exec(ctx); err != nil {
		return fmt.Errorf("catalog: clear delay %s: %w", key, err)
	}
	return nil
}

// PruneDelays deletes the keys forgotten before now.
func PruneDelays(ctx context.Context, db bun.IDB, now time.Time) (int64, error) {
	res, err := db.NewDelete().TableExpr("signin_delays").Where("expires_at < ?", now.UnixMilli()).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: prune delays: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

type serverSecret struct {
	bun.BaseModel `bun:"table:server_secrets"`
	Name          string `bun:"name,pk"`
	Value         string `bun:"value"`
}

// ServerSecret returns the secret named name (server_secrets), making a
// random 32-byte one on first use. Replicas asking at once agree: the
// first insert wins, and every caller reads back the stored value.
func ServerSecret(ctx context.Context, db bun.IDB, name string) ([]byte, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("catalog: make secret %s: %w", name, err)
	}
	row := &serverSecret{Name: name, Value: base64.StdEncoding.EncodeToString(b)}
	_, err := db.NewInsert().Model(row).On("CONFLICT (name) DO NOTHING").Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: store secret %s: %w", name, err)
	}
	var v string
	if err := db.NewSelect().TableExpr("server_secrets").Column("value").Where("name = ?", name).Scan(ctx, &v); err != nil {
		return nil, fmt.Errorf("catalog: load secret %s: %w", name, err)
	}
	secret, err := base64.StdEncoding.DecodeString(v)
	if err != nil || len(secret) < 16 {
		return nil, fmt.Errorf("catalog: secret %s is damaged; delete its server_secrets row to make a new one", name)
	}
	return secret, nil
}
