package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/schema"
)

// OpenCounted opens the conversation of key (OpenConversation) and counts
// a hit of limitKey against lim (Hit) in one round trip on Postgres: the
// count rides along as a data-modifying CTE of the conversation's read. A
// conversation seen for the first time is then created by a second
// statement. On SQLite, whose writes queue for one slot, it only opens the
// conversation and reports counted false: the caller counts the hit
// itself, where it can share a transaction with other turns' counts.
//
// A caller that finds the turn should not have counted (a replayed
// update) gives the hit back with Unhit.
func OpenCounted(ctx context.Context, db bun.IDB, key ConversationKey, customerID int64,
	limitKey string, lim Limit, now time.Time) (conv *Conversation, hit HitResult, counted bool, err error) {
	o, err := openCounted(ctx, db, key, customerID, limitKey, lim, now)
	return o.Conversation, o.Hit, o.Counted, err
}

// openCounted is OpenCounted, its results in a TurnOpening (no customer
// or cart) that also says whether the conversation was created.
func openCounted(ctx context.Context, db bun.IDB, key ConversationKey, customerID int64,
	limitKey string, lim Limit, now time.Time) (o TurnOpening, err error) {
	if db.Dialect().Name() != dialect.PG {
		o.Conversation, o.Created, err = openConversation(ctx, db, key, customerID)
		return o, err
	}
	if key.Channel == "" || key.ChatID == "" {
		return o, fmt.Errorf("catalog: open conversation: %w: channel and chat id are required", ErrInvalid)
	}
	if err := checkLimit(limitKey, lim); err != nil {
		return o, err
	}
	start, end := limitWindow(lim, now)
	var count int
	var windowEnd int64
	var found bool
	var cv convColumns
	q := `WITH hit AS (` + hitSQLPostgres + `)
	SELECT hit.hits, hit.window_end, c.id IS NOT NULL, c.id, c.channel, c.chat_id, c.thread_id, c.customer_id, c.paused,
		c.needs_human, c.needs_human_reason, c.last_message_at, c.last_read_at, c.created_at, c.state
	FROM hit LEFT JOIN conversations AS c ON c.channel = $4 AND c.chat_id = $5 AND c.thread_id = $6`
	err = selectValues(ctx, db, q, []any{limitKey, start, end, key.Channel, key.ChatID, key.ThreadID},
		append([]any{&count, &windowEnd, &found}, cv.dest()...)...)
	if err != nil {
		return o, fmt.Errorf("catalog: open conversation %s/%s: %w", key.Channel, key.ChatID, err)
	}
	o.Hit, o.Counted = hitResult(count, windowEnd, lim, now), true
	if found {
		o.Conversation = cv.conversation()
		return o, nil
	}
	o.Conversation, o.Created, err = createConversation(ctx, db, key, customerID)
	return o, err
}

// Unhit takes back a hit of key counted at now (one that should not have
// counted), unless its window has ended.
func Unhit(ctx context.Context, db bun.IDB, key string, lim Limit, now time.Time) error {
	if err := checkLimit(key, lim); err != nil {
		return err
	}
	start, _ := limitWindow(lim, now)
	_, err := exec(ctx, db, `UPDATE rate_limits SET hits = hits - 1 WHERE key = $1 AND window_start = $2 AND hits > 0`, key, start)
	if err != nil {
		return fmt.Errorf("catalog: unhit %s: %w", key, err)
	}
	return nil
}

// TurnOpening is what a turn starts from: who is talking, the
// conversation, the rate-limit hit if it was counted here (Counted), and
// the summary of the turn's cart (Cart, nil where it was not read with
// the rest: on SQLite, a new customer's turn in a shared chat, or one
// whose insert found the customer there already).
type TurnOpening struct {
	Customer     *Customer
	Conversation *Conversation
	Hit          HitResult
	Counted      bool
	Cart         *CartSummary
	// Created says the conversation was created by this turn: it has no
	// messages yet.
	Created bool
}

// OpenTurn starts a turn: the customer of id, the conversation of key
// (created if new), the summary of the turn's cart (the chat's shared
// cart when shared, else the customer's) and, on Postgres, the customer's
// rate-limit hit under limitPrefix followed by the customer's id. A known
// customer's turn is one statement for all of it, a new customer's one
// more (openNew) on Postgres and one transaction more on SQLite
// (openNewSQLite; in a shared chat, the statements of openCounted). On
// SQLite the caller counts the hit, a write that waits for the write slot
// and is grouped with other turns'.
func OpenTurn(ctx context.Context, db bun.IDB, id Identity, key ConversationKey, limitPrefix string,
	lim Limit, now time.Time, shared bool) (TurnOpening, error) {
	missing := false // the customer was looked for and not found
	pg := db.Dialect().Name() == dialect.PG
	if strings.TrimSpace(id.Channel) != "" && strings.TrimSpace(id.PlatformUserID) != "" && key.Channel != "" && key.ChatID != "" &&
		(!pg || checkLimit(limitPrefix+"-9223372036854775808", lim) == nil) {
		id.DisplayName, id.Username, id.Locale = storable(id.DisplayName), storable(id.Username), storable(id.Locale)
		o, err := openKnown(ctx, db, id, key, limitPrefix, lim, now, shared)
		if err == nil {
			c := o.Customer
			if c.DisplayName != id.DisplayName || c.Username != id.Username || c.Locale != id.Locale {
				if o.Customer, err = upsertCustomer(ctx, db, id); err != nil {
					return TurnOpening{}, err
				}
			}
			o.Counted = pg
			return o, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return TurnOpening{}, err
		}
		if pg {
			return openNew(ctx, db, id, key, limitPrefix, lim, now, shared)
		}
		missing = true
	}
	if missing && !shared {
		return openNewSQLite(ctx, db, id, key)
	}
	// An identity the guard above refused (ResolveCustomer says why), or
	// a new customer in a shared chat, whose conversation is there most
	// often: the customer first, then the rest.
	var c *Customer
	var err error
	if missing {
		c, err = upsertCustomer(ctx, db, id)
	} else {
		c, err = ResolveCustomer(ctx, db, id)
	}
	if err != nil {
		return TurnOpening{}, err
	}
	o, err := openCounted(ctx, db, key, c.ID, limitPrefix+strconv.FormatInt(c.ID, 10), lim, now)
	o.Customer = c
	return o, err
}

// openNewSQLite opens the turn of a customer the opening statement did
// not find, in their own chat, on SQLite: the customer and the
// conversation are written in one transaction, so the turn waits once
// for the write slot, and the conversation, all but surely new as well,
// is inserted without a read first (createConversation reads it when it
// is there). A customer this statement inserted (its creation and update
// times one) has no cart yet: the summary is empty without a read.
func openNewSQLite(ctx context.Context, db bun.IDB, id Identity, key ConversationKey) (TurnOpening, error) {
	var o TurnOpening
	err := runInTx(ctx, db, func(ctx context.Context, tx bun.IDB) error {
		c, err := upsertCustomer(ctx, tx, id)
		if err != nil {
			return err
		}
		conv, created, err := createConversation(ctx, tx, key, c.ID)
		if err != nil {
			return err
		}
		o = TurnOpening{Customer: c, Conversation: conv, Created: created}
		if c.CreatedAt.Equal(c.UpdatedAt) {
			o.Cart = &CartSummary{}
		}
		return nil
	})
	return o, err
}

// openKnown is OpenTurn's one statement for a known customer:
// sql.ErrNoRows when the customer is not known yet (then nothing was
// counted).
func openKnown(ctx context.Context, db bun.IDB, id Identity, key ConversationKey, limitPrefix string,
	lim Limit, now time.Time, shared bool) (TurnOpening, error) {
	sharedKey := ""
	if shared {
		sharedKey = SharedCart(key.Channel, key.ChatID).Key()
	}
	var q string
	var args []any
	if db.Dialect().Name() == dialect.PG {
		start, end := limitWindow(lim, now)
		q = openKnownPostgres(columnsOf(db, (*Customer)(nil)))
		args = []any{limitPrefix, start, end, key.Channel, key.ChatID, key.ThreadID, id.Channel, id.PlatformUserID, sharedKey}
	} else {
		q = openKnownSQLite(columnsOf(db, (*Customer)(nil)))
		args = []any{id.Channel, id.PlatformUserID, key.Channel, key.ChatID, key.ThreadID, sharedKey}
	}
	r := newOpeningRow(db)
	if err := selectValues(ctx, db, q, args, r.dest(false)...); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return TurnOpening{}, err
		}
		return TurnOpening{}, fmt.Errorf("catalog: open turn %s/%s: %w", key.Channel, key.ChatID, err)
	}
	o, err := r.opening(lim, now)
	if err != nil || o.Conversation != nil {
		return o, err
	}
	o.Conversation, o.Created, err = createConversation(ctx, db, key, o.Customer.ID)
	return o, err
}

// openingRow holds the scan of an opening statement's row: the
// customer's columns, the hit (NULL where not counted), the
// conversation's (NULL where there is none), whether the statement
// created it (openNewPostgres only) and the cart summary.
type openingRow struct {
	fields           []*schema.Field
	customer         []any
	count, windowEnd sql.NullInt64
	found, created   bool
	cv               convColumns
	cart             CartSummary
	cartCurrency     sql.NullString
}

func newOpeningRow(db bun.IDB) *openingRow {
	fields := db.NewSelect().DB().Table(reflect.TypeFor[Customer]()).Fields
	return &openingRow{fields: fields, customer: make([]any, len(fields))}
}

// dest lists the scan targets in the order the statements select them,
// with the created column where withCreated.
func (r *openingRow) dest(withCreated bool) []any {
	dest := make([]any, 0, len(r.customer)+20)
	for i := range r.customer {
		dest = append(dest, &r.customer[i])
	}
	dest = append(dest, &r.count, &r.windowEnd, &r.found)
	dest = append(dest, r.cv.dest()...)
	if withCreated {
		dest = append(dest, &r.created)
	}
	return append(dest, &r.cart.Units, &r.cart.Total, &r.cartCurrency)
}

// opening is the row as a TurnOpening: its Conversation nil when the row
// had none.
func (r *openingRow) opening(lim Limit, now time.Time) (TurnOpening, error) {
	c := new(Customer)
	strct := reflect.ValueOf(c).Elem()
	for i, f := range r.fields {
		if err := f.ScanValue(strct, r.customer[i]); err != nil {
			return TurnOpening{}, fmt.Errorf("catalog: open turn: customer %s: %w", f.Name, err)
		}
	}
	cart := r.cart
	cart.Currency = r.cartCurrency.String
	o := TurnOpening{Customer: c, Cart: &cart, Created: r.created}
	if r.count.Valid {
		o.Hit = hitResult(int(r.count.Int64), r.windowEnd.Int64, lim, now)
	}
	if r.found {
		o.Conversation = r.cv.conversation()
	}
	return o, nil
}

// openKnownPostgres selects the customer (cols), counts the rate-limit
// hit, and reads the conversation and the cart summary. $9 is the shared
// cart's scope key, the empty string for the customer's own cart.
func openKnownPostgres(cols string) string {
	return `WITH cust AS (SELECT ` + cols + ` FROM customers WHERE channel = $7 AND platform_user_id = $8),
	hit AS (` + customerHitPostgres + `)
	SELECT cust.*, hit.hits, hit.window_end, c.id IS NOT NULL, c.id, c.channel, c.chat_id, c.thread_id, c.customer_id, c.paused,
		c.needs_human, c.needs_human_reason, c.last_message_at, c.last_read_at, c.created_at, c.state,
		cart.units, cart.total, cart.currency
	FROM cust LEFT JOIN hit ON true LEFT JOIN conversations AS c ON c.channel = $4 AND c.chat_id = $5 AND c.thread_id = $6
	CROSS JOIN LATERAL (` + cartSummaryPostgres + `) AS cart`
}

// customerHitPostgres counts the rate-limit hit of the customer in cust
// ($1 the key's prefix, $2 and $3 the window) and returns it.
const customerHitPostgres = `INSERT INTO rate_limits (key, window_start, window_end, hits) SELECT $1::text || cust.id::text, $2, $3, 1 FROM cust
	ON CONFLICT (key) DO UPDATE SET
	hits = CASE WHEN rate_limits.window_start >= EXCLUDED.window_start THEN rate_limits.hits + 1 ELSE 1 END,
	window_start = GREATEST(rate_limits.window_start, EXCLUDED.window_start),
	window_end = GREATEST(rate_limits.window_end, EXCLUDED.window_end)
	RETURNING hits, window_end`

// cartSummaryPostgres sums the turn's cart: the shared cart of scope key
// $9, or the cart of the customer in cust when $9 is empty.
const cartSummaryPostgres = `SELECT COALESCE(SUM(ci.quantity), 0) AS units, COALESCE(SUM(ci.quantity * p.price), 0) AS total,
		MIN(p.currency) AS currency
		FROM cart_items AS ci JOIN carts AS ca ON ca.id = ci.cart_id JOIN products AS p ON p.id = ci.product_id
		WHERE ca.scope = CASE WHEN $9::text <> '' THEN $9::text ELSE 'customer:' || cust.id::text END`

// openNew is OpenTurn's one statement on Postgres for a customer the
// opening statement did not find (openNewPostgres): the customer stored,
// the hit counted, the conversation created or, when it is there already
// (a shared chat's, another customer's first), read, and the cart summed.
// Only a conversation created by another turn after this statement began
// needs a second statement, to read it.
func openNew(ctx context.Context, db bun.IDB, id Identity, key ConversationKey, limitPrefix string,
	lim Limit, now time.Time, shared bool) (TurnOpening, error) {
	sharedKey := ""
	if shared {
		sharedKey = SharedCart(key.Channel, key.ChatID).Key()
	}
	start, end := limitWindow(lim, now)
	args := []any{limitPrefix, start, end, key.Channel, key.ChatID, key.ThreadID, id.Channel, id.PlatformUserID, sharedKey,
		id.DisplayName, id.Username, id.Locale, timeArg(time.Now())}
	r := newOpeningRow(db)
	if err := selectValues(ctx, db, openNewPostgres(columnsOf(db, (*Customer)(nil))), args, r.dest(true)...); err != nil {
		return TurnOpening{}, fmt.Errorf("catalog: open turn of new customer %s/%s: %w", id.Channel, id.PlatformUserID, err)
	}
	o, err := r.opening(lim, now)
	o.Counted = true
	if err != nil || o.Conversation != nil {
		return o, err
	}
	o.Conversation = new(Conversation)
	if err := selectConversation(ctx, db, o.Conversation, key); err != nil {
		return TurnOpening{}, fmt.Errorf("catalog: open conversation %s/%s: %w", key.Channel, key.ChatID, err)
	}
	return o, nil
}

// openNewPostgres stores the customer (cols returned) as upsertCustomer
// does, counts its hit, creates the conversation unless it is there (as
// createConversation does) and sums the cart, with openKnownPostgres's
// arguments and $10–$12 the customer's names and locale, $13 the time.
// The conversation's columns come from the row inserted (created true)
// or from the one already there; neither when another turn's insert won
// after the statement began, which the statement cannot see.
func openNewPostgres(cols string) string {
	const convCols = `id, channel, chat_id, thread_id, customer_id, paused, needs_human, needs_human_reason,
		last_message_at, last_read_at, created_at, state`
	return `WITH cust AS (INSERT INTO customers (channel, platform_user_id, display_name, username, locale, created_at, updated_at)
		VALUES ($7, $8, $10, $11, $12, $13::timestamptz, $13::timestamptz)
		ON CONFLICT (channel, platform_user_id) DO UPDATE SET display_name = EXCLUDED.display_name,
			username = EXCLUDED.username, locale = EXCLUDED.locale, updated_at = EXCLUDED.updated_at
		RETURNING ` + cols + `),
	hit AS (` + customerHitPostgres + `),
	made AS (INSERT INTO conversations (channel, chat_id, thread_id, customer_id, paused, needs_human, needs_human_reason,
			last_message_at, created_at, state)
		SELECT $4::text, $5::text, $6::text, cust.id, false, false, '', $13::timestamptz, $13::timestamptz, '{}' FROM cust
		ON CONFLICT (channel, chat_id, thread_id) DO NOTHING
		RETURNING ` + convCols + `),
	conv AS (SELECT ` + convCols + `, true AS created FROM made
		UNION ALL SELECT ` + convCols + `, false FROM conversations WHERE channel = $4 AND chat_id = $5 AND thread_id = $6)
	SELECT cust.*, hit.hits, hit.window_end, conv.id IS NOT NULL, conv.id, conv.channel, conv.chat_id, conv.thread_id,
		conv.customer_id, conv.paused, conv.needs_human, conv.needs_human_reason, conv.last_message_at, conv.last_read_at,
		conv.created_at, conv.state, COALESCE(conv.created, false), cart.units, cart.total, cart.currency
	FROM cust LEFT JOIN hit ON true LEFT JOIN conv ON true
	CROSS JOIN LATERAL (` + cartSummaryPostgres + `) AS cart`
}

// openKnownSQLite reads the same as openKnownPostgres but counts no hit
// (NULL in its columns): on SQLite the hit is a write, which waits for
// the write slot and is grouped with other turns' (engine).
func openKnownSQLite(cols string) string {
	return `WITH cust AS (SELECT ` + cols + ` FROM customers WHERE channel = $1 AND platform_user_id = $2),
	cart AS (SELECT COALESCE(SUM(ci.quantity), 0) AS units, COALESCE(SUM(ci.quantity * p.price), 0) AS total,
		MIN(p.currency) AS currency
		FROM cart_items AS ci JOIN carts AS ca ON ca.id = ci.cart_id JOIN products AS p ON p.id = ci.product_id
		WHERE ca.scope = (SELECT CASE WHEN $6 <> '' THEN $6 ELSE 'customer:' || cust.id END FROM cust))
	SELECT cust.*, NULL, NULL, c.id IS NOT NULL, c.id, c.channel, c.chat_id, c.thread_id, c.customer_id, c.paused,
		c.needs_human, c.needs_human_reason, c.last_message_at, c.last_read_at, c.created_at, c.state,
		cart.units, cart.total, cart.currency
	FROM cust LEFT JOIN conversations AS c ON c.channel = $3 AND c.chat_id = $4 AND c.thread_id = $5 CROSS JOIN cart`
}

// convColumns reads a conversation's columns of a LEFT JOIN (all NULL
// when there is none).
type convColumns struct {
	id, customer               sql.NullInt64
	channel, chat, thread      sql.NullString
	reason, state              sql.NullString
	paused, needsHuman         sql.NullBool
	lastMessage, created, read sql.NullTime
}

// dest lists the scan targets in the order the queries select them.
func (v *convColumns) dest() []any {
	return []any{&v.id, &v.channel, &v.chat, &v.thread, &v.customer, &v.paused,
		&v.needsHuman, &v.reason, &v.lastMessage, &v.read, &v.created, &v.state}
}

func (v *convColumns) conversation() *Conversation {
	c := &Conversation{
		ID: v.id.Int64, Channel: v.channel.String, ChatID: v.chat.String, ThreadID: v.thread.String,
		Paused: v.paused.Bool, NeedsHuman: v.needsHuman.Bool, NeedsHumanReason: v.reason.String,
		LastMessageAt: v.lastMessage.Time, CreatedAt: v.created.Time, State: v.state.String,
	}
	if v.customer.Valid {
		c.CustomerID = &v.customer.Int64
	}
	if v.read.Valid {
		c.LastReadAt = &v.read.Time
	}
	return c
}
