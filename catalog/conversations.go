package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog/clip"
)

// Role says who wrote a message.
type Role string

const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
	RoleMerchant  Role = "merchant" // a person replying while the bot is paused
)

// ConversationKey identifies a conversation on its platform: a chat, and in
// Slack a thread within it.
type ConversationKey struct {
	Channel  string
	ChatID   string
	ThreadID string
}

// Conversation is one chat (or thread) between shoppers and the shop.
type Conversation struct {
	bun.BaseModel `bun:"table:conversations"`

	ID               int64      `bun:"id,pk,autoincrement"`
	Channel          string     `bun:"channel,notnull"`
	ChatID           string     `bun:"chat_id,notnull"`
	ThreadID         string     `bun:"thread_id,notnull"`
	CustomerID       *int64     `bun:"customer_id"`
	Paused           bool       `bun:"paused,notnull"`
	NeedsHuman       bool       `bun:"needs_human,notnull"`
	NeedsHumanReason string     `bun:"needs_human_reason,notnull"`
	LastMessageAt    time.Time  `bun:"last_message_at,notnull"`
	LastReadAt       *time.Time `bun:"last_read_at"`
	CreatedAt        time.Time  `bun:"created_at,notnull"`
	// State is the engine's memory of the conversation as JSON; the
	// catalog stores it without interpreting it.
	State string `bun:"state,notnull"`
	// The team's workflow (workflow.go), read here and written only by
	// its own functions (scanonly: inserts take the columns' defaults).
	Status       ConversationStatus `bun:"status,scanonly"`
	SnoozedUntil *time.Time         `bun:"snoozed_until,scanonly"`
	AssigneeID   *int64             `bun:"assignee_id,scanonly"`
	// The shopper's satisfaction rating (csat.go), likewise.
	CSATAskedAt *time.Time `bun:"csat_asked_at,scanonly"`
	CSATRating  *int       `bun:"csat_rating,scanonly"`
	CSATAt      *time.Time `bun:"csat_at,scanonly"`
	CSATAgentID *int64     `bun:"csat_agent_id,scanonly"`
}

// ToolCall is a model's request to run a tool, as persisted and replayed.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Message is one entry of a transcript: a shopper's turn, an assistant
// reply (possibly with tool calls), a tool result or a merchant's reply.
type Message struct {
	bun.BaseModel `bun:"table:messages"`

	ID               int64      `bun:"id,pk,autoincrement"`
	ConversationID   int64      `bun:"conversation_id,notnull"`
	Role             Role       `bun:"role,notnull"`
	Content          string     `bun:"content,notnull"`
	ToolCalls        []ToolCall `bun:"tool_calls,nullzero"` // NULL without tool calls
	ToolCallID       string     `bun:"tool_call_id,notnull"`
	ToolName         string     `bun:"tool_name,notnull"`
	ToolError        bool       `bun:"tool_error,notnull"`
	PromptTokens     int        `bun:"prompt_tokens,notnull"`
	CompletionTokens int        `bun:"completion_tokens,notnull"`
	Model            string     `bun:"model,notnull"`
	LatencyMS        int        `bun:"latency_ms,notnull"`
	CreatedAt        time.Time  `bun:"created_at,notnull"`
	TraceID          string     `bun:"trace_id,notnull"` // the turn's trace (32 hex digits) when tracing is on
}

// OpenConversation returns the conversation for key, creating it.
func OpenConversation(ctx context.Context, db bun.IDB, key ConversationKey, customerID int64) (*Conversation, error) {
	c, _, err := openConversation(ctx, db, key, customerID)
	return c, err
}

// openConversation is OpenConversation, also saying whether this call
// created the conversation.
func openConversation(ctx context.Context, db bun.IDB, key ConversationKey, customerID int64) (*Conversation, bool, error) {
	if key.Channel == "" || key.ChatID == "" {
		return nil, false, fmt.Errorf("catalog: open conversation: %w: channel and chat id are required", ErrInvalid)
	}
	existing := new(Conversation)
	if err := selectConversation(ctx, db, existing, key); err == nil {
		return existing, false, nil
	}
	return createConversation(ctx, db, key, customerID)
}

func selectConversation(ctx context.Context, db bun.IDB, dest *Conversation, key ConversationKey) error {
	return selectOne(ctx, db, dest, "SELECT "+columnsOf(db, dest)+
		" FROM conversations WHERE channel = $1 AND chat_id = $2 AND thread_id = $3", key.Channel, key.ChatID, key.ThreadID)
}

// createConversation inserts the conversation of key, which a read has
// just not found or which is new all but surely: one statement. When another turn inserted it in
// between, it reads that one instead; created says which happened (a
// conversation this call created has no messages yet).
func createConversation(ctx context.Context, db bun.IDB, key ConversationKey, customerID int64) (c *Conversation, created bool, err error) {
	now := time.Now().UTC()
	c = &Conversation{Channel: key.Channel, ChatID: key.ChatID, ThreadID: key.ThreadID, LastMessageAt: now, CreatedAt: now, State: "{}"}
	if customerID > 0 {
		c.CustomerID = &customerID
	}
	err = db.NewInsert().Model(c).On("CONFLICT (channel, chat_id, thread_id) DO NOTHING").Returning("*").Scan(ctx)
	if err == nil {
		return c, true, nil
	}
	if errors.Is(err, sql.ErrNoRows) { // another turn's insert won
		c = new(Conversation)
		err = selectConversation(ctx, db, c, key)
	}
	if err != nil {
		return nil, false, fmt.Errorf("catalog: open conversation %s/%s: %w", key.Channel, key.ChatID, err)
	}
	return c, false, nil
}

// GetConversation loads a conversation by id.
func GetConversation(ctx context.Context, db bun.IDB, id int64) (*Conversation, error) {
	c := new(Conversation)
	if err := db.NewSelect().Model(c).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err, "conversation %d", id)
	}
	return c, nil
}

// AppendMessages persists messages in order and bumps the conversation's
// last-message time.
func AppendMessages(ctx context.Context, db bun.IDB, conversationID int64, ms ...*Message) error {
	if len(ms) == 0 {
		return nil
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	for _, m := range ms {
		m.ConversationID = conversationID
		if m.CreatedAt.IsZero() {
			m.CreatedAt = now
		}
	}
	if _, err := db.NewInsert().Model(&ms).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("catalog: append messages to conversation %d: %w", conversationID, err)
	}
	res, err := db.NewUpdate().Model((*Conversation)(nil)).
		Set("last_message_at = ?", now).Where("id = ?", conversationID).Exec(ctx)
	return expectOneRow(res, err, "conversation %d", conversationID)
}

// RecentMessages returns the last limit messages of a conversation in
// chronological order.
func RecentMessages(ctx context.Context, db bun.IDB, conversationID int64, limit int) ([]Message, error) {
	var ms []Message
	err := db.NewSelect().Model(&ms).Where("conversation_id = ?", conversationID).
		Order("id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: messages of conversation %d: %w", conversationID, err)
	}
	for i, j := 0, len(ms)-1; i < j; i, j = i+1, j-1 {
		ms[i], ms[j] = ms[j], ms[i]
	}
	return ms, nil
}

// SetPaused hands a conversation to a merchant (true) or back to the bot.
func SetPaused(ctx context.Context, db bun.IDB, conversationID int64, paused bool) error {
	res, err := db.NewUpdate().Model((*Conversation)(nil)).
		Set("paused = ?", paused).Where("id = ?", conversationID).Exec(ctx)
	return expectOneRow(res, err, "conversation %d", conversationID)
}

// FlagNeedsHuman marks a conversation for a merchant's attention.
func FlagNeedsHuman(ctx context.Context, db bun.IDB, conversationID int64, reason string) error {
	res, err := db.NewUpdate().Model((*Conversation)(nil)).
		Set("needs_human = ?", true).Set("needs_human_reason = ?", clip.Bytes(reason, 500)).
		Where("id = ?", conversationID).Exec(ctx)
	return expectOneRow(res, err, "conversation %d", conversationID)
}

// SaveTurn records a turn in one go: its messages, and the conversation's
// state and last_message_at. It returns the new last_message_at, which
// readers of the conversation can use as its version.
func SaveTurn(ctx context.Context, db bun.IDB, conversationID int64, state string, ms ...*Message) (time.Time, error) {
	// Microseconds: what Postgres keeps, so the value read back is equal.
	now := time.Now().UTC().Truncate(time.Microsecond)
	for _, m := range ms {
		m.ConversationID = conversationID
		if m.CreatedAt.IsZero() {
			m.CreatedAt = now
		}
	}
	if err := insertMessages(ctx, db, ms); err != nil {
		return now, fmt.Errorf("catalog: append messages to conversation %d: %w", conversationID, err)
	}
	res, err := exec(ctx, db, `UPDATE conversations SET state = $1, last_message_at = $2 WHERE id = $3`,
		state, timeArg(now), conversationID)
	return now, expectOneRow(res, err, "conversation %d", conversationID)
}

// Key is where the conversation lives on its platform.
func (c *Conversation) Key() ConversationKey {
	return ConversationKey{Channel: c.Channel, ChatID: c.ChatID, ThreadID: c.ThreadID}
}

// FindConversation returns the conversation for key without creating it,
// or ErrNotFound; the Slack adapter asks it whether a thread is one the
// assistant takes part in.
func FindConversation(ctx context.Context, db bun.IDB, key ConversationKey) (*Conversation, error) {
	c := new(Conversation)
	err := db.NewSelect().Model(c).
		Where("channel = ?", key.Channel).Where("chat_id = ?", key.ChatID).Where("thread_id = ?", key.ThreadID).Scan(ctx)
	if err != nil {
		return nil, notFound(err, "conversation %s/%s/%s", key.Channel, key.ChatID, key.ThreadID)
	}
	return c, nil
}

// ShopperTranscript is what a shopper may see again of a conversation:
// its latest limit messages that the shopper, the assistant or a merchant
// wrote with text (no tool calls or results, no system prompts), oldest
// first. A conversation that does not exist yet has none.
func ShopperTranscript(ctx context.Context, db bun.IDB, key ConversationKey, limit int) ([]Message, error) {
	var ms []Message
	sub := db.NewSelect().Model((*Conversation)(nil)).Column("id").
		Where("channel = ? AND chat_id = ? AND thread_id = ?", key.Channel, key.ChatID, key.ThreadID)
	err := db.NewSelect().Model(&ms).
		Where("conversation_id IN (?)", sub).
		Where("role IN (?)", bun.List([]Role{RoleUser, RoleAssistant, RoleMerchant})).
		Where("content <> ''").
		Order("id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: transcript of %s %s: %w", key.Channel, key.ChatID, err)
	}
	for i, j := 0, len(ms)-1; i < j; i, j = i+1, j-1 {
		ms[i], ms[j] = ms[j], ms[i]
	}
	return ms, nil
}

// FindConversationID returns the id of key's conversation, 0 when there
// is none or it cannot be read (a link the page can do without).
func FindConversationID(ctx context.Context, db bun.IDB, key ConversationKey) int64 {
	var id int64
	_ = db.NewSelect().Model((*Conversation)(nil)).Column("id").
		Where("channel = ?", key.Channel).Where("chat_id = ?", key.ChatID).Where("thread_id = ?", key.ThreadID).
		Limit(1).Scan(ctx, &id)
	return id
}

// SearchToolName is the name the search tool's calls and results are
// stored under in the messages table.
const SearchToolName = "search_products"

// SearchFoundNothing is the key a stored search result carries (true)
// when the shopper was told nothing matches although the search returned
// products: the answer ruled them all out (none has every word asked
// for, none in stock to add). panel.SearchCounts counts such a search as found
// nothing, as one that returned nothing.
const SearchFoundNothing = "found_nothing"
