package slack

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"shopbot/catalog/groupcommit"
)

// inboxRow is a request from Slack as received, kept until its work is
// done so that one acknowledged but not yet handled survives a crash.
type inboxRow struct {
	bun.BaseModel `bun:"table:slack_inbox"`

	Key        string     `bun:"event_key,pk"`
	Kind       string     `bun:"kind,notnull"`
	Payload    string     `bun:"payload,notnull"`
	ReceivedAt time.Time  `bun:"received_at,notnull"`
	HandledAt  *time.Time `bun:"handled_at"`
}

// Kinds of requests: what the payload is, and so how it becomes work
// again when resumed.
const (
	kindEvent   = "event"   // an Events API envelope
	kindAction  = "action"  // an interaction payload
	kindCommand = "command" // a slash command, as slack.SlashCommand JSON
)

// maxKeyRunes bounds an inbox key (Slack's ids are far shorter).
const maxKeyRunes = 200

// storableKey reports whether an inbox key, built from ids in the
// request, can be stored as given: bounded, valid UTF-8, no control
// characters. Altering it instead could make two requests one.
func storableKey(k string) bool {
	return utf8.ValidString(k) && utf8.RuneCountInString(k) <= maxKeyRunes &&
		strings.IndexFunc(k, unicode.IsControl) < 0
}

// keepHandled is how long handled requests stay in the inbox; Slack
// retries for minutes, not days.
const keepHandled = 7 * 24 * time.Hour

// inbox stores requests before they are acknowledged and marks them
// handled after, both with group commit (groupcommit.Batcher): a burst of
// requests costs a few commits instead of one each.
type inbox struct {
	db      *bun.DB
	records groupcommit.Batcher[inboxRow, bool]
	handled groupcommit.Batcher[string, bool]
}

func newInbox(db *bun.DB) *inbox {
	in := &inbox{db: db}
	in.records.Write = in.insert
	in.handled.Write = in.markHandled
	return in
}

// record stores row; first is false when its key was stored before (a
// retry).
func (in *inbox) record(ctx context.Context, row inboxRow) (first bool, err error) {
	return in.records.Do(ctx, row)
}

// done marks the request of key handled.
func (in *inbox) done(ctx context.Context, key string) error {
	_, err := in.handled.Do(ctx, key)
	return err
}

func (in *inbox) insert(ctx context.Context, rows []inboxRow) ([]bool, error) {
	var keys []string
	err := in.db.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Returning("event_key").Scan(ctx, &keys)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("slack: record %d requests: %w", len(rows), err)
	}
	fresh := make(map[string]bool, len(keys))
	for _, k := range keys {
		fresh[k] = true
	}
	first := make([]bool, len(rows))
	for i, r := range rows {
		first[i] = fresh[r.Key]
		delete(fresh, r.Key) // a key twice in one batch: the first wins
	}
	return first, nil
}

func (in *inbox) markHandled(ctx context.Context, keys []string) ([]bool, error) {
	_, err := in.db.NewUpdate().Model((*inboxRow)(nil)).Set("handled_at = ?", time.Now().UTC()).
		Where("event_key IN (?)", bun.List(keys)).Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("slack: mark %d requests handled: %w", len(keys), err)
	}
	return make([]bool, len(keys)), nil
}

// unhandled lists recorded requests not yet handled, oldest first.
func (in *inbox) unhandled(ctx context.Context) ([]inboxRow, error) {
	var rows []inboxRow
	err := in.db.NewSelect().Model(&rows).Where("handled_at IS NULL").
		Order("received_at", "event_key").Limit(10_000).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("slack: list unhandled requests: %w", err)
	}
	return rows, nil
}

// prune forgets handled requests received before cutoff.
func (in *inbox) prune(ctx context.Context, cutoff time.Time) error {
	_, err := in.db.NewDelete().Model((*inboxRow)(nil)).
		Where("handled_at IS NOT NULL").Where("received_at < ?", cutoff.UTC()).Exec(ctx)
	if err != nil {
		return fmt.Errorf("slack: prune handled requests: %w", err)
	}
	return nil
}
