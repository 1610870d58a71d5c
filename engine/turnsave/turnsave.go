package turnsave

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/groupcommit"
)

// Saver saves turns' ends with group commit on Postgres: the turns
// that finish while one save is on its way are saved together by the
// next, in one statement (catalog.SaveTurnGroup), so a busy engine sends
// one round trip, takes one pooled connection and commits once for
// several turns. A lone turn is SaveTurnWrites's one statement, as
// before. SQLite groups the turns' transactions instead (groupcommit.Tx).
type Saver struct {
	db    bun.IDB
	batch groupcommit.Batcher[catalog.TurnWrites, savedTurn]
}

// savedTurn is one turn's outcome in a group.
type savedTurn struct {
	at  time.Time
	err error
}

// New is a Saver writing to db, at most max turns in one statement.
func New(db bun.IDB, max int) *Saver {
	s := &Saver{db: db}
	s.batch = groupcommit.Batcher[catalog.TurnWrites, savedTurn]{Write: s.write, Max: max}
	return s
}

// Grouped reports whether Save takes w: on Postgres, when w is one
// statement on its own (catalog.TurnWrites.OneStatement).
func (s *Saver) Grouped(w catalog.TurnWrites) bool { return w.OneStatement(s.db) }

// Save saves w (grouped), alone or with other turns', and returns the
// new last_message_at; w.Messages get their ids.
func (s *Saver) Save(ctx context.Context, w catalog.TurnWrites) (time.Time, error) {
	r, err := s.batch.Do(ctx, w)
	if err != nil {
		return time.Time{}, err
	}
	return r.at, r.err
}

func (s *Saver) write(ctx context.Context, ws []catalog.TurnWrites) ([]savedTurn, error) {
	at, errs := catalog.SaveTurnGroup(ctx, s.db, ws)
	res := make([]savedTurn, len(ws))
	for i := range res {
		res[i] = savedTurn{at: at[i], err: errs[i]}
	}
	return res, nil
}
