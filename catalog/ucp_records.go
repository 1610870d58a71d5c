package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// UCPRecords keeps the records of the UCP binding (adapters/ucp) in
// ucp_records: checkout sessions, the lease an operation holds on one,
// and the replies to Idempotency-Keys, each a value under (kind, key)
// until it expires, so replicas share them and a restart keeps them.
// It is the ucp.Store bot/ passes in. Errors carry ErrUnavailable when
// the database is unreachable.
type UCPRecords struct {
	DB     bun.IDB
	pruner LimitPruner
}

type ucpRecord struct {
	bun.BaseModel `bun:"table:ucp_records"`
	Kind          string `bun:"kind,pk"`
	Key           string `bun:"key,pk"`
	Value         string `bun:"value"`
	ExpiresAt     int64  `bun:"expires_at"`
}

// maxUCPKey bounds a kind or a key.
const maxUCPKey = 255

func checkUCPKey(kind, key string) error {
	if kind == "" || key == "" || len(kind) > maxUCPKey || len(key) > maxUCPKey {
		return fmt.Errorf("%w: kind and key of 1 to %d bytes required", ErrInvalid, maxUCPKey)
	}
	return nil
}

// Claim stores value under (kind, key) until expires when no record is
// there or the one there expired before now, and reports whether it did;
// of racing claims (on any replica) exactly one wins.
func (u *UCPRecords) Claim(ctx context.Context, kind, key string, value []byte, expires, now time.Time) (bool, error) {
	if err := checkUCPKey(kind, key); err != nil {
		return false, fmt.Errorf("catalog: claim ucp record: %w", err)
	}
	row := &ucpRecord{Kind: kind, Key: key, Value: string(value), ExpiresAt: expires.UnixMilli()}
	res, err := u.DB.NewInsert().Model(row).
		On("CONFLICT (kind, key) DO UPDATE").
		Set("value = EXCLUDED.value, expires_at = EXCLUDED.expires_at").
		Where("ucp_record.expires_at < ?", now.UnixMilli()).Exec(ctx)
	if err != nil {
		return false, Unavailable(fmt.Errorf("catalog: claim ucp record: %w", err))
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("catalog: claim ucp record: %w", err)
	}
	if err := u.pruner.Maybe(ctx, u.DB, now); err != nil {
		return false, Unavailable(err)
	}
	return n == 1, nil
}

// Put stores value under (kind, key) until expires, whatever was there.
func (u *UCPRecords) Put(ctx context.Context, kind, key string, value []byte, expires time.Time) error {
	if err := checkUCPKey(kind, key); err != nil {
		return fmt.Errorf("catalog: put ucp record: %w", err)
	}
	row := &ucpRecord{Kind: kind, Key: key, Value: string(value), ExpiresAt: expires.UnixMilli()}
	_, err := u.DB.NewInsert().Model(row).
		On("CONFLICT (kind, key) DO UPDATE").
		Set("value = EXCLUDED.value, expires_at = EXCLUDED.expires_at").Exec(ctx)
	if err != nil {
		return Unavailable(fmt.Errorf("catalog: put ucp record: %w", err))
	}
	return nil
}

// Get is the value under (kind, key); false when there is none or it
// expired before now.
func (u *UCPRecords) Get(ctx context.Context, kind, key string, now time.Time) ([]byte, bool, error) {
	var row ucpRecord
	err := u.DB.NewSelect().Model(&row).
		Where("kind = ? AND key = ? AND expires_at >= ?", kind, key, now.UnixMilli()).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, Unavailable(fmt.Errorf("catalog: get ucp record: %w", err))
	}
	return []byte(row.Value), true, nil
}

// Release deletes the record under (kind, key) if it still holds value
// (a lease or a pending reply of the caller's, not a later one's).
func (u *UCPRecords) Release(ctx context.Context, kind, key string, value []byte) error {
	_, err := u.DB.NewDelete().TableExpr("ucp_records").
		Where("kind = ? AND key = ? AND value = ?", kind, key, string(value)).Exec(ctx)
	if err != nil {
		return Unavailable(fmt.Errorf("catalog: release ucp record: %w", err))
	}
	return nil
}

// PruneUCPRecords deletes the UCP records expired before now.
func PruneUCPRecords(ctx context.Context, db bun.IDB, now time.Time) (int64, error) {
	res, err := db.NewDelete().TableExpr("ucp_records").Where("expires_at < ?", now.UnixMilli()).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: prune ucp records: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}
