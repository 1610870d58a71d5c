package inbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// cartRow remembers the cart message of a chat (and thread, where the
// platform has them), edited in place as the cart changes. It is stored,
// not kept in memory, so that after a restart, or on another replica, the
// same message is edited instead of a second one posted.
type cartRow struct {
	bun.BaseModel `bun:"table:cart_messages"`

	Source    string    `bun:"source,pk"`
	Chat      string    `bun:"chat,pk"`
	Thread    string    `bun:"thread,pk"`
	MessageID string    `bun:"message_id,notnull"`
	Turn      string    `bun:"turn,notnull"`
	UpdatedAt time.Time `bun:"updated_at,notnull"`
}

// Cart is the cart message of a chat: the platform's id of the message,
// and the turn (its dedup key) that posted it. A turn run again after its
// replica died finds the message it posted already, and edits it instead
// of posting a second one.
type Cart struct {
	MessageID string
	Turn      string
}

// Cart is the cart message of (chat, thread), zero when it has none.
func (in *Inbox) Cart(ctx context.Context, chat, thread string) (Cart, error) {
	var r cartRow
	err := in.db.NewSelect().Model(&r).Where("source = ?", in.source).Where("chat = ?", chat).
		Where("thread = ?", thread).Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return Cart{}, nil
	}
	if err != nil {
		return Cart{}, fmt.Errorf("inbox: cart message of %s chat %s: %w", in.source, chat, err)
	}
	return Cart{MessageID: r.MessageID, Turn: r.Turn}, nil
}

// RememberCartOf stores c as the cart message of (chat, thread).
func (in *Inbox) RememberCartOf(ctx context.Context, chat, thread string, c Cart) error {
	r := &cartRow{Source: in.source, Chat: chat, Thread: thread, MessageID: c.MessageID, Turn: c.Turn, UpdatedAt: time.Now().UTC()}
	_, err := in.db.NewInsert().Model(r).
		On("CONFLICT (source, chat, thread) DO UPDATE").
		Set("message_id = EXCLUDED.message_id, turn = EXCLUDED.turn, updated_at = EXCLUDED.updated_at").Exec(ctx)
	if err != nil {
		return fmt.Errorf("inbox: remember cart message of %s chat %s: %w", in.source, chat, err)
	}
	return nil
}

// CartMessage is the id of the cart message of (chat, thread), "" when it
// has none.
func (in *Inbox) CartMessage(ctx context.Context, chat, thread string) (string, error) {
	c, err := in.Cart(ctx, chat, thread)
	return c.MessageID, err
}

// RememberCart stores id as the cart message of (chat, thread), posted by
// no turn in particular.
func (in *Inbox) RememberCart(ctx context.Context, chat, thread, id string) error {
	return in.RememberCartOf(ctx, chat, thread, Cart{MessageID: id})
}
