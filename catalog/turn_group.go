package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/driver/pgdriver"

	"shopbot/catalog/dbstats"
)

// SaveTurnGroup saves several turns' ends, each as SaveTurnWrites would,
// and returns each one's last_message_at and error. On Postgres the group
// is one statement (saveTurnsSQL): one round trip, one pooled connection
// and one commit for all, and all or nothing, a statement being its own
// transaction. If Postgres refuses it, or the group cannot share one (a
// customer counted on two days), each turn is saved alone, so one bad
// turn fails alone; a failure that may have committed (the connection
// broke) is not retried but is every turn's error. The engine groups the
// turns that finish together with it (engine/saves.go).
func SaveTurnGroup(ctx context.Context, db bun.IDB, ws []TurnWrites) ([]time.Time, []error) {
	at, errs := make([]time.Time, len(ws)), make([]error, len(ws))
	if len(ws) > 1 && groupable(db, ws) {
		now, err := saveTurns(ctx, db, ws)
		var refused pgdriver.Error
		if err == nil || !errors.As(err, &refused) {
			for i := range ws {
				at[i], errs[i] = now, err
			}
			return at, errs
		}
	}
	for i, w := range ws {
		at[i], errs[i] = SaveTurnWrites(ctx, db, w)
	}
	return at, errs
}

// groupable reports whether ws can share one statement: on Postgres,
// each one statement on its own, distinct conversations (a chat's turns
// are serialized, so always), and each customer's tokens counted for one
// day.
func groupable(db bun.IDB, ws []TurnWrites) bool {
	convs := make(map[int64]bool, len(ws))
	days := make(map[int64]string, len(ws))
	for _, w := range ws {
		if !w.OneStatement(db) || convs[w.ConversationID] {
			return false
		}
		convs[w.ConversationID] = true
		if w.Tokens <= 0 {
			continue
		}
		if d, ok := days[w.CustomerID]; ok && d != w.TokenDay {
			return false
		}
		days[w.CustomerID] = w.TokenDay
	}
	return true
}

// saveTurnsSQL saves several turns' ends in one statement: the turns
// ($1: conversation, state, customer, day, tokens) update their
// conversations and, summed per customer, the customers' daily tokens;
// the messages ($3, in order) are inserted and their ids returned in that
// order with the number of conversations updated. The text is the same
// for any number of turns, so it stays prepared.
//
// The id = ANY (ARRAY(…)) conditions are for the planner: it takes
// jsonb_to_recordset for 100 rows, and against a table under a few
// thousand pages it then scanned all of conversations and customers for
// every group (a Postgres turn's largest cost: 1,160 pages of
// conversations after a 2,000 × 5 bench). With the ids as an array it
// looks them up in the primary keys, whatever the tables' sizes when the
// plan was made.
const saveTurnsSQL = `WITH t AS (SELECT * FROM jsonb_to_recordset($1::jsonb)
		AS t(conversation_id bigint, state text, customer_id bigint, day date, tokens integer)),
	conv AS (UPDATE conversations AS c SET state = t.state::jsonb, last_message_at = $2
		FROM t WHERE c.id = t.conversation_id AND c.id = ANY (ARRAY(SELECT conversation_id FROM t)) RETURNING c.id),
	tok AS (UPDATE customers AS cu
		SET tokens_used = CASE WHEN cu.tokens_day = k.day THEN cu.tokens_used + k.tokens ELSE k.tokens END, tokens_day = k.day
		FROM (SELECT customer_id, day, sum(tokens)::integer AS tokens FROM t WHERE tokens > 0 GROUP BY customer_id, day) AS k
		WHERE cu.id = k.customer_id AND cu.id = ANY (ARRAY(SELECT customer_id FROM t WHERE tokens > 0)) RETURNING cu.id)
	INSERT INTO messages (` + messageColumns + `)
	SELECT m.conversation_id, m.role, m.content, m.tool_calls, m.tool_call_id, m.tool_name, m.tool_error,
		m.prompt_tokens, m.completion_tokens, m.model, m.latency_ms, m.created_at, m.trace_id
	FROM jsonb_to_recordset($3::jsonb) AS m(conversation_id bigint, role text, content text, tool_calls jsonb,
		tool_call_id text, tool_name text, tool_error boolean, prompt_tokens integer, completion_tokens integer, model text,
		latency_ms integer, created_at timestamptz, trace_id text, i bigint)
	ORDER BY m.i
	RETURNING id, (SELECT count(*) FROM conv)`

// groupTurn and groupMessage are saveTurnsSQL's JSON rows.
type groupTurn struct {
	ConversationID int64  `json:"conversation_id"`
	State          string `json:"state"`
	CustomerID     int64  `json:"customer_id"`
	Day            string `json:"day,omitempty"`
	Tokens         int    `json:"tokens"`
}

type groupMessage struct {
	ConversationID   int64           `json:"conversation_id"`
	Role             Role            `json:"role"`
	Content          string          `json:"content"`
	ToolCalls        json.RawMessage `json:"tool_calls,omitempty"` // NULL without tool calls
	ToolCallID       string          `json:"tool_call_id"`
	ToolName         string          `json:"tool_name"`
	ToolError        bool            `json:"tool_error"`
	PromptTokens     int             `json:"prompt_tokens"`
	CompletionTokens int             `json:"completion_tokens"`
	Model            string          `json:"model"`
	LatencyMS        int             `json:"latency_ms"`
	CreatedAt        string          `json:"created_at"`
	TraceID          string          `json:"trace_id"`
	I                int             `json:"i"` // the row's place, for the order of the ids returned
}

// saveTurns saves ws (groupable, Postgres) in one statement and returns
// the conversations' new last_message_at.
func saveTurns(ctx context.Context, db bun.IDB, ws []TurnWrites) (time.Time, error) {
	now := time.Now().UTC().Truncate(time.Microsecond)
	turns := make([]groupTurn, len(ws))
	var msgs []*Message
	for i, w := range ws {
		turns[i] = groupTurn{ConversationID: w.ConversationID, State: w.State, CustomerID: w.CustomerID, Tokens: max(w.Tokens, 0)}
		if w.Tokens > 0 {
			turns[i].Day = w.TokenDay
		}
		msgs = append(msgs, w.Messages...)
	}
	rows := make([]groupMessage, len(msgs))
	ids := make([]int64, len(msgs))
	byTurn := 0
	var err error
	for _, w := range ws {
		for _, m := range w.Messages {
			created := m.CreatedAt
			if created.IsZero() {
				created = now
			}
			var calls json.RawMessage
			if m.ToolCalls != nil {
				if calls, err = json.Marshal(m.ToolCalls); err != nil {
					return now, err
				}
			}
			rows[byTurn] = groupMessage{ConversationID: w.ConversationID, Role: m.Role, Content: m.Content,
				ToolCalls: calls, ToolCallID: m.ToolCallID, ToolName: m.ToolName, ToolError: m.ToolError,
				PromptTokens: m.PromptTokens, CompletionTokens: m.CompletionTokens, Model: m.Model,
				LatencyMS: m.LatencyMS, CreatedAt: timeArg(created), TraceID: m.TraceID, I: byTurn}
			byTurn++
		}
	}
	tj, err := json.Marshal(turns)
	if err != nil {
		return now, err
	}
	mj, err := json.Marshal(rows)
	if err != nil {
		return now, err
	}
	h, err := direct(db)
	if err != nil {
		return now, err
	}
	defer dbstats.Observe(ctx, "INSERT INTO messages (several turns with their updates)", time.Now())
	r, err := h.QueryContext(ctx, saveTurnsSQL, string(tj), timeArg(now), string(mj))
	if err != nil {
		return now, fmt.Errorf("catalog: save %d turns: %w", len(ws), err)
	}
	defer r.Close()
	for i := range ids {
		if !r.Next() {
			if err := r.Err(); err != nil {
				return now, fmt.Errorf("catalog: save %d turns: %w", len(ws), err)
			}
			return now, fmt.Errorf("catalog: save turns: %d ids returned for %d messages", i, len(msgs))
		}
		var convRows int
		if err := r.Scan(&ids[i], &convRows); err != nil {
			return now, err
		}
		if convRows != len(ws) {
			return now, fmt.Errorf("catalog: save turns: %d of %d conversations: %w", convRows, len(ws), ErrNotFound)
		}
	}
	if err := r.Close(); err != nil {
		return now, err
	}
	// Only now, when all is saved: a refused group is saved again alone.
	i := 0
	for _, w := range ws {
		for _, m := range w.Messages {
			m.ConversationID = w.ConversationID
			if m.CreatedAt.IsZero() {
				m.CreatedAt = now
			}
			m.ID = ids[i]
			i++
		}
	}
	return now, nil
}
