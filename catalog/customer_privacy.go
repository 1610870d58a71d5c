package catalog

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// CustomerExport is everything the shop keeps about one customer, as the
// customer may ask to see it: their profile, orders with their lines, and
// conversations with their messages.
type CustomerExport struct {
	ExportedAt    time.Time            `json:"exported_at"`
	Customer      *Customer            `json:"customer"`
	Orders        []Order              `json:"orders"`
	Conversations []ConversationExport `json:"conversations"`
}

// ConversationExport is one conversation of a CustomerExport.
type ConversationExport struct {
	Channel   string    `json:"channel"`
	ChatID    string    `json:"chat_id"`
	CreatedAt time.Time `json:"created_at"`
	Messages  []Message `json:"messages"`
}

// ExportCustomer gathers a customer's data; ErrNotFound when there is no
// such customer.
func ExportCustomer(ctx context.Context, db bun.IDB, customerID int64, now time.Time) (*CustomerExport, error) {
	c, err := GetCustomer(ctx, db, customerID)
	if err != nil {
		return nil, err
	}
	x := &CustomerExport{ExportedAt: now.UTC(), Customer: c, Orders: []Order{}, Conversations: []ConversationExport{}}
	err = db.NewSelect().Model(&x.Orders).Relation("Items").Where("?TableAlias.customer_id = ?", customerID).
		OrderExpr("?TableAlias.id").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: export orders of customer %d: %w", customerID, err)
	}
	var convs []Conversation
	if err := db.NewSelect().Model(&convs).Where("customer_id = ?", customerID).Order("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: export conversations of customer %d: %w", customerID, err)
	}
	for _, cv := range convs {
		e := ConversationExport{Channel: cv.Channel, ChatID: cv.ChatID, CreatedAt: cv.CreatedAt, Messages: []Message{}}
		if err := db.NewSelect().Model(&e.Messages).Where("conversation_id = ?", cv.ID).Order("id").Scan(ctx); err != nil {
			return nil, fmt.Errorf("catalog: export messages of conversation %d: %w", cv.ID, err)
		}
		x.Conversations = append(x.Conversations, e)
	}
	return x, nil
}

// Erasure says what ForgetCustomer did.
type Erasure struct {
	Orders        int // orders kept with their personal fields cleared
	Conversations int // conversations deleted with their messages and notes
}

// ForgetCustomer erases a customer's personal data in one transaction:
// their conversations (messages, notes and labels with them), carts and
// back-in-stock alerts are deleted; their orders are kept for the books
// with the contact, address, note and chat cleared; the customer row
// stays (orders point at it) without name, contact or platform identity,
// so the person's next message starts a new customer. An unknown customer
// is ErrNotFound; forgetting twice is harmless.
func ForgetCustomer(ctx context.Context, db bun.IDB, customerID int64) (Erasure, error) {
	var er Erasure
	err := runInTx(ctx, db, func(ctx context.Context, tx bun.IDB) error {
		c, err := GetCustomer(ctx, tx, customerID)
		if err != nil {
			return err
		}
		forgotten := "forgotten:" + strconv.FormatInt(c.ID, 10)
		res, err := tx.NewUpdate().Model((*Order)(nil)).
			Set("contact_name = ''").Set("phone = ''").Set("email = ''").Set("shipping_address = ''").Set("note = ''").
			Set("chat_id = ''").Set("thread_id = ''").
			Set("idempotency_key = ? || CAST(id AS TEXT)", forgotten+":order:").
			Where("customer_id = ?", c.ID).Exec(ctx)
		if err != nil {
			return fmt.Errorf("catalog: clear orders of customer %d: %w", c.ID, err)
		}
		n, _ := res.RowsAffected()
		er.Orders = int(n)
		res, err = tx.NewDelete().Model((*Conversation)(nil)).Where("customer_id = ?", c.ID).Exec(ctx)
		if err != nil {
			return fmt.Errorf("catalog: delete conversations of customer %d: %w", c.ID, err)
		}
		n, _ = res.RowsAffected()
		er.Conversations = int(n)
		for _, table := range []string{"carts", "stock_alerts"} {
			if _, err := tx.NewDelete().Table(table).Where("customer_id = ?", c.ID).Exec(ctx); err != nil {
				return fmt.Errorf("catalog: delete %s of customer %d: %w", table, c.ID, err)
			}
		}
		_, err = tx.NewUpdate().Model((*Customer)(nil)).Set("platform_user_id = ?", forgotten).
			Set("display_name = ''").Set("username = ''").Set("contact_name = ''").Set("phone = ''").
			Set("email = ''").Set("address = ''").Where("id = ?", c.ID).Exec(ctx)
		if err != nil {
			return fmt.Errorf("catalog: clear customer %d: %w", c.ID, err)
		}
		return nil
	})
	return er, err
}

// runInTx runs fn in a transaction, or in the one db already is.
func runInTx(ctx context.Context, db bun.IDB, fn func(ctx context.Context, tx bun.IDB) error) error {
	if tx, ok := db.(bun.Tx); ok {
		return fn(ctx, tx)
	}
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return fn(ctx, tx) })
}

// CustomerList selects a page of the customer list, newest first.
type CustomerList struct {
	// Text matches the name, username, contact name, phone or e-mail
	// (substring, any case) or the platform id exactly.
	Text    string
	AfterID int64 // the previous page's last id
	Limit   int   // default 50, at most 200
}

// CustomerRow is one customer of the list with their orders' count and
// total spent (in the shop's orders, any currency summed per row as
// stored: shops sell in one currency).
type CustomerRow struct {
	Customer `bun:",extend"`
	Orders   int   `bun:"order_count,scanonly"`
	Spent    int64 `bun:"spent,scanonly"`
}

// ListCustomers returns a page of customers and the id to pass as AfterID
// for the next (0 on the last).
func ListCustomers(ctx context.Context, db bun.IDB, l CustomerList) ([]CustomerRow, int64, error) {
	limit := l.Limit
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	var rows []CustomerRow
	q := db.NewSelect().Model(&rows).ColumnExpr("?TableAlias.*").
		ColumnExpr("(SELECT COUNT(*) FROM orders AS o WHERE o.customer_id = ?TableAlias.id) AS order_count").
		ColumnExpr("(SELECT COALESCE(SUM(o.total - o.refunded_total), 0) FROM orders AS o WHERE o.customer_id = ?TableAlias.id AND o.status <> 'cancelled') AS spent")
	if t := strings.TrimSpace(l.Text); t != "" {
		pat, op := LikePattern(t), LikeOp(db)
		q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			for _, col := range []string{"display_name", "username", "contact_name", "phone", "email"} {
				q = q.WhereOr("?TableAlias."+col+" "+op+" ? ESCAPE '\\'", pat)
			}
			return q.WhereOr("?TableAlias.platform_user_id = ?", t)
		})
	}
	if l.AfterID > 0 {
		q = q.Where("?TableAlias.id < ?", l.AfterID)
	}
	if err := q.OrderExpr("?TableAlias.id DESC").Limit(int64(limit + 1)).Scan(ctx); err != nil {
		return nil, 0, fmt.Errorf("catalog: list customers: %w", err)
	}
	if len(rows) <= limit {
		return rows, 0, nil
	}
	rows = rows[:limit]
	return rows, rows[len(rows)-1].ID, nil
}

// CustomerConversations lists a customer's conversations, newest first.
func CustomerConversations(ctx context.Context, db bun.IDB, customerID int64) ([]Conversation, error) {
	var out []Conversation
	if err := db.NewSelect().Model(&out).Where("customer_id = ?", customerID).Order("last_message_at DESC").Limit(100).Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: conversations of customer %d: %w", customerID, err)
	}
	return out, nil
}
