package catalog

import (
	"context"
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

	TurnKey   string    `bun:"turn_key,pk"`
	EffectKey string    `bun:"effect_key,pk"`
	CreatedAt time.Time `bun:"created_at,notnull"`
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
