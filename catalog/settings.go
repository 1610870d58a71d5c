package catalog

import (
	"context"
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
}

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
	}
}

// Save stores every field of st, validated by the caller (the admin
// panel's form), in one statement.
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
	_, err := s.db.NewInsert().Model(&rows).
		On("CONFLICT (key) DO UPDATE").Set("value = EXCLUDED.value, updated_at = EXCLUDED.updated_at").Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: save settings: %w", err)
	}
	return nil
}
