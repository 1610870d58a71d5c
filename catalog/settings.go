package catalog

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/uptrace/bun"
)

// Settings are what a merchant changes while the shop runs (the admin
// panel's settings page); the engine applies them to the next turns
// without a restart. A zero field keeps the process configuration's value.
type Settings struct {
	ShopName    string
	Currency    string
	PromptExtra string
	Model       string // the chat model name of an OpenAI-compatible server
	MaxRounds   int
	RateLimit   int
	RateWindow  time.Duration
	// Version counts the saves (0: never saved). Save writes only over
	// the version the settings were read at, so a form opened before
	// another save cannot write the older values back.
	Version int64
}

// versionKey is the settings row holding Settings.Version.
const versionKey = "version"

// setting is one row of the settings table.
type setting struct {
	bun.BaseModel `bun:"table:settings"`

	Key       string    `bun:"key,pk"`
	Value     string    `bun:"value,notnull"`
	UpdatedAt time.Time `bun:"updated_at,notnull"`
}

// SettingsStore reads and writes Settings in the database; fields never
// saved fall back to the defaults (the process configuration).
type SettingsStore struct {
	db       bun.IDB
	defaults Settings
}

// NewSettingsStore returns the settings store over db.
func NewSettingsStore(db bun.IDB, defaults Settings) *SettingsStore {
	return &SettingsStore{db: db, defaults: defaults}
}

// Get returns the current settings: the saved ones over the defaults. A
// nil store, or one without a database, has zero Settings.
func (s *SettingsStore) Get(ctx context.Context) (Settings, error) {
	if s == nil || s.db == nil {
		return Settings{}, nil
	}
	st := s.defaults
	var rows []setting
	if err := s.db.NewSelect().Model(&rows).Scan(ctx); err != nil {
		return st, fmt.Errorf("catalog: read settings: %w", err)
	}
	for _, r := range rows {
		st.set(r.Key, r.Value)
	}
	return st, nil
}

// set applies one stored value; an unreadable number or duration reads
// as zero (the configuration's value).
func (st *Settings) set(key, value string) {
	switch key {
	case "shop_name":
		st.ShopName = value
	case "currency":
		st.Currency = value
	case "prompt_extra":
		st.PromptExtra = value
	case "model":
		st.Model = value
	case "max_rounds":
		st.MaxRounds, _ = strconv.Atoi(value)
	case "rate_limit":
		st.RateLimit, _ = strconv.Atoi(value)
	case "rate_window":
		st.RateWindow, _ = time.ParseDuration(value)
	case versionKey:
		st.Version, _ = strconv.ParseInt(value, 10, 64)
	}
}

// Save stores every field of st, validated by the caller (the admin
// panel's form), if the stored settings are still at st.Version: else it
// writes nothing and fails with ErrConflict. The version is bumped in the
// same transaction.
func (s *SettingsStore) Save(ctx context.Context, st Settings, now time.Time) error {
	rows := []setting{
		{Key: "shop_name", Value: st.ShopName}, {Key: "currency", Value: st.Currency},
		{Key: "prompt_extra", Value: st.PromptExtra}, {Key: "model", Value: st.Model},
		{Key: "max_rounds", Value: strconv.Itoa(st.MaxRounds)}, {Key: "rate_limit", Value: strconv.Itoa(st.RateLimit)},
		{Key: "rate_window", Value: st.RateWindow.String()},
	}
	for i := range rows {
		rows[i].UpdatedAt = now.UTC()
	}
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := bumpSettingsVersion(ctx, tx, st.Version, now); err != nil {
			return err
		}
		_, err := tx.NewInsert().Model(&rows).
			On("CONFLICT (key) DO UPDATE").Set("value = EXCLUDED.value, updated_at = EXCLUDED.updated_at").Exec(ctx)
		return err
	})
	if err != nil {
		return fmt.Errorf("catalog: save settings: %w", err)
	}
	return nil
}

// bumpSettingsVersion moves the settings from version from to from+1 in
// one conditional statement, or fails with ErrConflict.
func bumpSettingsVersion(ctx context.Context, tx bun.Tx, from int64, now time.Time) error {
	next := setting{Key: versionKey, Value: strconv.FormatInt(from+1, 10), UpdatedAt: now.UTC()}
	var res sql.Result
	var err error
	if from == 0 {
		res, err = tx.NewInsert().Model(&next).On("CONFLICT (key) DO NOTHING").Exec(ctx)
	} else {
		res, err = tx.NewUpdate().Model(&next).Column("value", "updated_at").WherePK().
			Where("value = ?", strconv.FormatInt(from, 10)).Exec(ctx)
	}
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("the settings changed since they were read (version %d): %w", from, ErrConflict)
	}
	return nil
}
