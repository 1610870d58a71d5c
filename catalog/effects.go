package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// TurnEffect is one row of the effects journal: a side effect of a chat
// turn (a cart change, an order, a saved contact, a handoff), written in
// the same transaction as the effect, so a turn run again after a crash
// can tell what it already did.
type TurnEffect struct {
	bun.BaseModel `bun:"table:turn_effects"`

	TurnKey    string     `bun:"turn_key,pk"`
	EffectKey  string     `bun:"effect_key,pk"`
	Notice     *string    `bun:"notice"`      // to deliver after the commit, if any
	NotifiedAt *time.Time `bun:"notified_at"` // when the notice was claimed for delivery
	CreatedAt  time.Time  `bun:"created_at,notnull"`
}

// ClaimEffect records an effect of a turn, to be called in the effect's
// own transaction. It reports false if the journal already holds it (the
// turn ran before and this effect committed): the caller then skips the
// effect. On Postgres a concurrent claim of the same effect waits for the
// first transaction and then reports false.
func ClaimEffect(ctx context.Context, db bun.IDB, turnKey, effectKey string, at time.Time) (bool, error) {
	if turnKey == "" || effectKey == "" {
		return false, fmt.Errorf("catalog: claim effect: %w: turn and effect keys are required", ErrInvalid)
	}
	row := &TurnEffect{TurnKey: turnKey, EffectKey: effectKey, CreatedAt: at.UTC()}
	res, err := db.NewInsert().Model(row).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("catalog: claim effect %s/%s: %w", turnKey, effectKey, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("catalog: claim effect %s/%s: %w", turnKey, effectKey, err)
	}
	return n == 1, nil
}

// SetEffectNotice keeps the notice an effect owes the merchant, in the
// effect's transaction, for TakeEffectNotice to deliver after the commit.
func SetEffectNotice(ctx context.Context, db bun.IDB, turnKey, effectKey, notice string) error {
	res, err := db.NewUpdate().Model((*TurnEffect)(nil)).Set("notice = ?", notice).
		Where("turn_key = ? AND effect_key = ?", turnKey, effectKey).Exec(ctx)
	return expectOneRow(res, err, "effect %s/%s", turnKey, effectKey)
}

// TakeEffectNotice claims an effect's undelivered notice and returns it,
// or "" if it has none or another caller took it: each notice is handed
// out once.
func TakeEffectNotice(ctx context.Context, db bun.IDB, turnKey, effectKey string, at time.Time) (string, error) {
	var notice string
	err := db.NewUpdate().Model((*TurnEffect)(nil)).Set("notified_at = ?", at.UTC()).
		Where("turn_key = ? AND effect_key = ? AND notice IS NOT NULL AND notified_at IS NULL", turnKey, effectKey).
		Returning("notice").Scan(ctx, &notice)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("catalog: take notice of effect %s/%s: %w", turnKey, effectKey, err)
	}
	return notice, nil
}

// PendingNotices lists effects recorded before cutoff whose notice no one
// has claimed: their turn stopped after the commit and was not run again.
func PendingNotices(ctx context.Context, db bun.IDB, cutoff time.Time, limit int) ([]TurnEffect, error) {
	var rows []TurnEffect
	err := db.NewSelect().Model(&rows).
		Where("notice IS NOT NULL AND notified_at IS NULL AND created_at < ?", cutoff.UTC()).
		Order("created_at").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: pending notices: %w", err)
	}
	return rows, nil
}

// PruneEffects deletes journal rows older than cutoff and returns how
// many went.
func PruneEffects(ctx context.Context, db bun.IDB, cutoff time.Time) (int64, error) {
	res, err := db.NewDelete().Model((*TurnEffect)(nil)).Where("created_at < ?", cutoff.UTC()).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: prune effects: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}
