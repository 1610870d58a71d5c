package catalog

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog/dbstats"
)

// The statements every chat turn runs, written with $N placeholders and
// sent with their arguments through database/sql, so that SQLite keeps
// them prepared (catalog/sqliteconn); on Postgres they run as prepared
// statements kept per pooled connection (hot_prepared.go). Both databases
// read $N the same way. Everything else goes through bun's query builder.

// sqlHandle is what the hot statements need of database/sql.
type sqlHandle interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// direct returns the database/sql handle under db: the pool, the
// transaction or the connection.
// On Postgres, statements with arguments run prepared (hot_prepared.go).
func direct(db bun.IDB) (sqlHandle, error) {
	switch d := db.(type) {
	case *bun.DB:
		return preparedHandle(db, d.DB), nil
	case bun.Tx:
		return preparedHandle(db, d.Tx), nil
	case *bun.Tx:
		return preparedHandle(db, d.Tx), nil
	case bun.Conn:
		return d.Conn, nil
	case *bun.Conn:
		return d.Conn, nil
	}
	return nil, fmt.Errorf("catalog: %T is not a bun database, transaction or connection", db)
}

// selectOne scans the single row query returns into the bun model dest;
// sql.ErrNoRows when there is none.
func selectOne(ctx context.Context, db bun.IDB, dest any, query string, args ...any) error {
	return queryRow(ctx, db, query, args, func(rows *sql.Rows) error {
		return db.NewSelect().DB().ScanRow(ctx, rows, dest)
	})
}

// selectValues scans the single row query returns into dest.
func selectValues(ctx context.Context, db bun.IDB, query string, args []any, dest ...any) error {
	return queryRow(ctx, db, query, args, func(rows *sql.Rows) error { return rows.Scan(dest...) })
}

// queryRow runs query and scans its first row; sql.ErrNoRows when there
// is none.
func queryRow(ctx context.Context, db bun.IDB, query string, args []any, scan func(*sql.Rows) error) error {
	h, err := direct(db)
	if err != nil {
		return err
	}
	defer dbstats.Observe(ctx, query, time.Now())
	rows, err := h.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	if err := scan(rows); err != nil {
		return err
	}
	return rows.Close()
}

// exec runs a hot statement that returns no rows.
func exec(ctx context.Context, db bun.IDB, query string, args ...any) (sql.Result, error) {
	h, err := direct(db)
	if err != nil {
		return nil, err
	}
	defer dbstats.Observe(ctx, query, time.Now())
	return h.ExecContext(ctx, query, args...)
}

// timeArg is t as bun writes it into SQL: UTC with microseconds and the
// offset. Passing the same text keeps stored times alike whichever way
// they were written (SQLite compares them as text).
func timeArg(t time.Time) string {
	return t.UTC().Format("2006-01-02 15:04:05.999999-07:00")
}

// columnLists caches columnsOf by model type.
var columnLists sync.Map // reflect.Type → string

// columnsOf lists the columns of model's table as bun maps them, quoted
// and comma-separated, for a hot SELECT to read into the model.
func columnsOf(db bun.IDB, model any) string {
	typ := reflect.TypeOf(model).Elem()
	if s, ok := columnLists.Load(typ); ok {
		return s.(string)
	}
	var b strings.Builder
	for i, f := range db.NewSelect().DB().Table(typ).Fields {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`"` + f.Name + `"`)
	}
	columnLists.Store(typ, b.String())
	return b.String()
}

// messageColumns are what insertMessages writes, in its argument order.
const messageColumns = `conversation_id, role, content, tool_calls, tool_call_id, tool_name, tool_error,
	prompt_tokens, completion_tokens, model, latency_ms, created_at, trace_id`

// messagesPerInsert bounds the rows of one INSERT INTO messages: 13
// arguments a row, so 500 rows bind 6,500 variables, well under SQLite's
// limit (32,766 in modernc.org/sqlite's build; past it: "too many SQL
// variables") and the 65,535 parameters of Postgres's protocol, should
// the driver ever bind instead of inlining them. Chunks of one call share
// the caller's transaction.
const messagesPerInsert = 500

// insertMessages inserts ms, messagesPerInsert rows a statement, and sets
// their ids. A turn's messages usually fit one statement.
func insertMessages(ctx context.Context, db bun.IDB, ms []*Message) error {
	for len(ms) > 0 {
		n := min(len(ms), messagesPerInsert)
		if err := insertMessageRows(ctx, db, ms[:n]); err != nil {
			return err
		}
		ms = ms[n:]
	}
	return nil
}

// insertMessageRows inserts ms in one statement and sets their ids.
func insertMessageRows(ctx context.Context, db bun.IDB, ms []*Message) error {
	q, args, err := messageInsert(ms, 0)
	if err != nil {
		return err
	}
	h, err := direct(db)
	if err != nil {
		return err
	}
	defer dbstats.Observe(ctx, "INSERT INTO messages", time.Now())
	rows, err := h.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for i, m := range ms {
		if !rows.Next() {
			if err := rows.Err(); err != nil {
				return err
			}
			return fmt.Errorf("catalog: insert messages: %d ids returned for %d messages", i, len(ms))
		}
		if err := rows.Scan(&m.ID); err != nil {
			return err
		}
	}
	return rows.Close()
}

// messageInsert builds the INSERT INTO messages of ms, returning their
// ids, with placeholders numbered from after+1.
func messageInsert(ms []*Message, after int) (string, []any, error) {
	const perRow = 13
	var q strings.Builder
	q.WriteString("INSERT INTO messages (" + messageColumns + ") VALUES ")
	args := make([]any, 0, perRow*len(ms))
	for i, m := range ms {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteByte('(')
		for c := range perRow {
			if c > 0 {
				q.WriteString(", ")
			}
			q.WriteString("$" + strconv.Itoa(after+i*perRow+c+1))
		}
		q.WriteByte(')')
		var calls any // NULL without tool calls, as bun writes a nil slice
		if m.ToolCalls != nil {
			b, err := json.Marshal(m.ToolCalls)
			if err != nil {
				return "", nil, err
			}
			calls = string(b)
		}
		args = append(args, m.ConversationID, string(m.Role), m.Content, calls, m.ToolCallID, m.ToolName, m.ToolError,
			m.PromptTokens, m.CompletionTokens, m.Model, m.LatencyMS, timeArg(m.CreatedAt), m.TraceID)
	}
	q.WriteString(" RETURNING id")
	return q.String(), args, nil
}
