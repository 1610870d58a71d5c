package team

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// OnlineWindow is how recently a staff member's panel session must have
// been seen (staff_sessions.last_seen_at: any panel request; or
// heartbeat_at: the open live inbox stream, HeartbeatStaffSession) for
// them to count as online. It is in the database, so every replica sees
// the same team online.
const OnlineWindow = 5 * time.Minute

// OnlineStaff returns the ids of the enabled staff members with a live
// session seen within OnlineWindow of now, in id order; roles narrows
// them (nil: any role).
func OnlineStaff(ctx context.Context, db bun.IDB, roles []StaffRole, now time.Time) ([]int64, error) {
	var ids []int64
	q := onlineQuery(db, roles, now).Column("u.id").Order("u.id")
	if err := q.Scan(ctx, &ids); err != nil {
		return nil, fmt.Errorf("catalog: online staff: %w", err)
	}
	return ids, nil
}

func onlineQuery(db bun.IDB, roles []StaffRole, now time.Time) *bun.SelectQuery {
	now = now.UTC()
	q := db.NewSelect().TableExpr("staff_users AS u").Where("u.disabled_at IS NULL").
		Where("EXISTS (SELECT 1 FROM staff_sessions AS s WHERE s.user_id = u.id AND (s.last_seen_at >= ? OR s.heartbeat_at >= ?) AND s.expires_at > ?)",
			now.Add(-OnlineWindow), now.Add(-OnlineWindow), now)
	if roles != nil {
		q = q.Where("u.role IN (?)", bun.List(roles))
	}
	return q
}

// HeartbeatStaffSession records that the session's panel is open (its
// live stream) at now: it keeps the member online without extending the
// session's idle timeout.
func HeartbeatStaffSession(ctx context.Context, db bun.IDB, tokenHash string, now time.Time) error {
	res, err := db.NewUpdate().Table("staff_sessions").Set("heartbeat_at = ?", now.UTC()).Where("token_hash = ?", tokenHash).Exec(ctx)
	return catalog.ExpectOneRow(res, err, "staff session")
}

// AutoAssign gives an unassigned conversation to the next online staff
// member in turn, when round robin is on: the one whose last automatic
// assignment is oldest (never assigned first, then by id). It returns the
// assignee, or ErrNotFound when round robin is off, no one is online or
// the conversation already has an assignee (which is kept).
//
// The turn is taken under the assignment_counter row (a row lock on
// Postgres, the write lock on SQLite), so assigners on several replicas
// at once take distinct turns and each conversation gets one assignee.
// Call it in the transaction that flags the handoff, or alone.
func AutoAssign(ctx context.Context, db bun.IDB, conversationID int64, now time.Time) (int64, error) {
	ts, err := catalog.GetTeamSettings(ctx, db)
	if err != nil {
		return 0, err
	}
	if ts.RoundRobin == catalog.RoundRobinOff {
		return 0, fmt.Errorf("catalog: round robin is off: %w", catalog.ErrNotFound)
	}
	assigned, err := db.NewSelect().Table("conversations").Where("id = ?", conversationID).Where("assignee_id IS NOT NULL").Exists(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: look up conversation %d: %w", conversationID, err)
	}
	if assigned {
		return 0, fmt.Errorf("catalog: conversation %d is assigned already: %w", conversationID, catalog.ErrNotFound)
	}
	var who int64
	err = inTx(ctx, db, func(ctx context.Context, tx bun.Tx) error {
		var turn int64
		if err := tx.NewRaw("UPDATE assignment_counter SET turn = turn + 1 WHERE id = 1 RETURNING turn").Scan(ctx, &turn); err != nil {
			return fmt.Errorf("catalog: take an assignment turn: %w", err)
		}
		var roles []StaffRole
		if ts.RoundRobin == catalog.RoundRobinAgents {
			roles = []StaffRole{StaffAgent}
		}
		err := onlineQuery(tx, roles, now).Column("u.id").
			Join("LEFT JOIN assignment_turns AS t ON t.user_id = u.id").
			OrderExpr("COALESCE(t.last_turn, 0), u.id").Limit(1).Scan(ctx, &who)
		if err != nil {
			return catalog.NotFound(err, "an online staff member to assign conversation %d", conversationID)
		}
		res, err := tx.NewUpdate().Table("conversations").Set("assignee_id = ?", who).
			Where("id = ?", conversationID).Where("assignee_id IS NULL").Exec(ctx)
		if err := catalog.ExpectOneRow(res, err, "unassigned conversation %d", conversationID); err != nil {
			return err
		}
		_, err = tx.NewInsert().Model(&assignmentTurn{UserID: who, LastTurn: turn}).
			On("CONFLICT (user_id) DO UPDATE").Set("last_turn = EXCLUDED.last_turn").Exec(ctx)
		if err != nil {
			return fmt.Errorf("catalog: record the turn of staff user %d: %w", who, err)
		}
		return nil
	})
	return who, err
}

type assignmentTurn struct {
	bun.BaseModel `bun:"table:assignment_turns"`

	UserID   int64 `bun:"user_id,pk"`
	LastTurn int64 `bun:"last_turn,notnull"`
}

// inTx runs fn in db's transaction if db is one, else in a new one.
func inTx(ctx context.Context, db bun.IDB, fn func(ctx context.Context, tx bun.Tx) error) error {
	if tx, ok := db.(bun.Tx); ok {
		return fn(ctx, tx)
	}
	return db.RunInTx(ctx, nil, fn)
}

// AssignConversation gives a conversation to a staff member, or to no one
// (nil). A user who does not exist or is disabled is ErrInvalid.
func AssignConversation(ctx context.Context, db bun.IDB, conversationID int64, assignee *int64) error {
	if assignee != nil {
		u, err := GetStaffUser(ctx, db, *assignee)
		if errors.Is(err, catalog.ErrNotFound) || (err == nil && u.Disabled()) {
			return fmt.Errorf("catalog: assign conversation %d: %w: no active staff user %d", conversationID, catalog.ErrInvalid, *assignee)
		}
		if err != nil {
			return err
		}
	}
	res, err := db.NewUpdate().Table("conversations").Set("assignee_id = ?", assignee).Where("id = ?", conversationID).Exec(ctx)
	return catalog.ExpectOneRow(res, err, "conversation %d", conversationID)
}
