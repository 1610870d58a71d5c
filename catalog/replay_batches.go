package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Replay batch states. A running batch whose heartbeat is older than
// ReplayStaleAfter is interrupted (State reports it; the next start
// stores it).
const (
	ReplayRunning     = "running"
	ReplayDone        = "done"
	ReplayFailed      = "failed"
	ReplayInterrupted = "interrupted"
)

// ReplayStaleAfter is how old a running batch's heartbeat may get before
// the batch counts as interrupted; a runner beats every ReplayBeat.
const (
	ReplayStaleAfter = 2 * time.Minute
	ReplayBeat       = 15 * time.Second
)

// ReplayBatch is one admin replay batch and its result, shared by every
// replica through the database. Turns is the replayed turns as JSON (the
// admin panel's own shape; catalog only stores it).
type ReplayBatch struct {
	bun.BaseModel `bun:"table:replay_batches"`

	ID           int64        `bun:"id,pk,autoincrement"`
	SinceSeconds int64        `bun:"since_seconds,notnull"`
	StartedBy    string       `bun:"started_by,notnull"`
	Status       string       `bun:"status,notnull"`
	Error        string       `bun:"error,notnull"` // why a failed batch stopped, as a sentence
	Done         int          `bun:"done,notnull"`
	Total        int          `bun:"total,notnull"`
	Turns        string       `bun:"turns,notnull"`
	StartedAt    time.Time    `bun:"started_at,notnull"`
	HeartbeatAt  time.Time    `bun:"heartbeat_at,notnull"`
	FinishedAt   bun.NullTime `bun:"finished_at"`
}

// Since is the batch's window.
func (b ReplayBatch) Since() time.Duration { return time.Duration(b.SinceSeconds) * time.Second }

// State is the batch's status as shown at now.
func (b ReplayBatch) State(now time.Time) string {
	if b.Status == ReplayRunning && now.Sub(b.HeartbeatAt) > ReplayStaleAfter {
		return ReplayInterrupted
	}
	return b.Status
}

// StartReplayBatch records a new running batch over the last since and
// sets b. A running batch with a fresh heartbeat (on any replica) is
// ErrConflict; a stale one is marked interrupted first. The partial
// unique index makes two starts at once leave one batch.
func StartReplayBatch(ctx context.Context, db bun.IDB, since time.Duration, by string, now time.Time) (ReplayBatch, error) {
	now = now.UTC().Truncate(time.Microsecond)
	b := ReplayBatch{SinceSeconds: int64(since / time.Second), StartedBy: by, Status: ReplayRunning,
		Turns: "[]", StartedAt: now, HeartbeatAt: now}
	if b.SinceSeconds <= 0 {
		return ReplayBatch{}, fmt.Errorf("catalog: start replay: %w: the window must be at least a second", ErrInvalid)
	}
	_, err := db.NewUpdate().Model((*ReplayBatch)(nil)).
		Set("status = ?", ReplayInterrupted).Set("finished_at = ?", now).
		Where("status = ?", ReplayRunning).Where("heartbeat_at < ?", now.Add(-ReplayStaleAfter)).Exec(ctx)
	if err != nil {
		return ReplayBatch{}, fmt.Errorf("catalog: start replay: %w", err)
	}
	if _, err := db.NewInsert().Model(&b).Returning("id").Exec(ctx); err != nil {
		if isUniqueViolation(err) {
			return ReplayBatch{}, fmt.Errorf("catalog: start replay: %w: a replay is already running", ErrConflict)
		}
		return ReplayBatch{}, fmt.Errorf("catalog: start replay: %w", err)
	}
	return b, nil
}

// ReplayProgress records done of total and beats the heartbeat of a
// running batch; done never goes back (progress may arrive out of order).
// A batch no longer running (marked interrupted meanwhile) is ErrNotFound.
func ReplayProgress(ctx context.Context, db bun.IDB, id int64, done, total int, now time.Time) error {
	res, err := db.NewUpdate().Model((*ReplayBatch)(nil)).
		Set("done = CASE WHEN done > ? THEN done ELSE ? END", done, done).
		Set("total = ?", total).Set("heartbeat_at = ?", now.UTC()).
		Where("id = ?", id).Where("status = ?", ReplayRunning).Exec(ctx)
	return expectOneRow(res, err, "replay batch %d", id)
}

// FinishReplayBatch stores a running batch's end: done with its turns
// (JSON), or failed with why (a sentence). A batch no longer running is
// ErrNotFound and keeps its state.
func FinishReplayBatch(ctx context.Context, db bun.IDB, id int64, turns string, failure string, now time.Time) error {
	status := ReplayDone
	if failure != "" {
		status = ReplayFailed
	}
	if turns == "" {
		turns = "[]"
	}
	now = now.UTC()
	res, err := db.NewUpdate().Model((*ReplayBatch)(nil)).
		Set("status = ?", status).Set("error = ?", failure).Set("turns = ?", turns).
		Set("heartbeat_at = ?", now).Set("finished_at = ?", now).
		Where("id = ?", id).Where("status = ?", ReplayRunning).Exec(ctx)
	return expectOneRow(res, err, "replay batch %d", id)
}

// LatestReplayBatch returns the newest batch, or ErrNotFound when none
// was ever started.
func LatestReplayBatch(ctx context.Context, db bun.IDB) (ReplayBatch, error) {
	var b ReplayBatch
	err := db.NewSelect().Model(&b).Order("id DESC").Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return b, fmt.Errorf("catalog: latest replay batch: %w", ErrNotFound)
	}
	if err != nil {
		return b, fmt.Errorf("catalog: latest replay batch: %w", err)
	}
	return b, nil
}

// ConversationsWithTurnsSince lists, oldest first, the conversations with
// a shopper message at or after since: what shopbot replay replays.
func ConversationsWithTurnsSince(ctx context.Context, db bun.IDB, since time.Time) ([]int64, error) {
	var ids []int64
	err := db.NewSelect().Model((*Message)(nil)).ColumnExpr("DISTINCT conversation_id").
		Where("role = ?", RoleUser).Where("created_at >= ?", since.UTC()).
		Order("conversation_id").Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("catalog: conversations since %s: %w", since.Format(time.RFC3339), err)
	}
	return ids, nil
}
