package admin

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/engine"
)

// ShopSettings are what a merchant changes in the panel; they apply
// without a restart (the engine reads them through EngineSettings).
type ShopSettings struct {
	ShopName    string
	Currency    string
	PromptExtra string
	Model       string
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

// Settings reads and writes ShopSettings in the database; fields never
// saved fall back to the defaults (the process configuration).
type Settings struct {
	db       bun.IDB
	defaults ShopSettings
}

// NewSettings returns the settings store over db.
func NewSettings(db bun.IDB, defaults ShopSettings) *Settings {
	return &Settings{db: db, defaults: defaults}
}

// Get returns the current settings.
func (s *Settings) Get(ctx context.Context) (ShopSettings, error) {
	if s == nil || s.db == nil {
		return ShopSettings{}, nil
	}
	st := s.defaults
	var rows []setting
	if err := s.db.NewSelect().Model(&rows).Scan(ctx); err != nil {
		return st, fmt.Errorf("admin: read settings: %w", err)
	}
	for _, r := range rows {
		switch r.Key {
		case "shop_name":
			st.ShopName = r.Value
		case "currency":
			st.Currency = r.Value
		case "prompt_extra":
			st.PromptExtra = r.Value
		case "model":
			st.Model = r.Value
		case "max_rounds":
			st.MaxRounds, _ = strconv.Atoi(r.Value)
		case "rate_limit":
			st.RateLimit, _ = strconv.Atoi(r.Value)
		case "rate_window":
			st.RateWindow, _ = time.ParseDuration(r.Value)
		}
	}
	return st, nil
}

// Save validates and stores every field.
func (s *Settings) Save(ctx context.Context, st ShopSettings) error {
	if err := st.validate(); err != nil {
		return err
	}
	now := time.Now().UTC()
	rows := []setting{
		{Key: "shop_name", Value: st.ShopName}, {Key: "currency", Value: st.Currency},
		{Key: "prompt_extra", Value: st.PromptExtra}, {Key: "model", Value: st.Model},
		{Key: "max_rounds", Value: strconv.Itoa(st.MaxRounds)}, {Key: "rate_limit", Value: strconv.Itoa(st.RateLimit)},
		{Key: "rate_window", Value: st.RateWindow.String()},
	}
	for i := range rows {
		rows[i].UpdatedAt = now
	}
	_, err := s.db.NewInsert().Model(&rows).
		On("CONFLICT (key) DO UPDATE").Set("value = EXCLUDED.value, updated_at = EXCLUDED.updated_at").Exec(ctx)
	if err != nil {
		return fmt.Errorf("admin: save settings: %w", err)
	}
	return nil
}

func (st *ShopSettings) validate() error {
	st.ShopName = strings.TrimSpace(st.ShopName)
	st.Model = strings.TrimSpace(st.Model)
	switch {
	case st.ShopName == "" || len([]rune(st.ShopName)) > 80:
		return badRequest("The shop name must be 1–80 characters.")
	case len(st.PromptExtra) > 4000:
		return badRequest("The prompt additions must be at most 4,000 characters.")
	case len(st.Model) > 100 || strings.ContainsAny(st.Model, " \t\r\n"):
		return badRequest("The model must be a model name without spaces, such as gpt-4o-mini.")
	case st.MaxRounds < 1 || st.MaxRounds > 20:
		return badRequest("Model calls per turn must be from 1 to 20.")
	case st.RateLimit < 1 || st.RateLimit > 10000:
		return badRequest("The rate limit must be from 1 to 10,000 turns.")
	case st.RateWindow < time.Second || st.RateWindow > 24*time.Hour:
		return badRequest("The rate window must be from 1s to 24h.")
	}
	cur, err := catalog.NormalizeCurrency(st.Currency)
	if err != nil {
		return badRequest("%q is not an ISO 4217 currency code.", st.Currency)
	}
	st.Currency = cur
	return nil
}

// EngineSettings is the engine's settings hook (engine.Config.Settings):
// the stored settings as overrides of the static configuration.
func EngineSettings(s *Settings) func(ctx context.Context) (engine.Overrides, error) {
	return func(ctx context.Context) (engine.Overrides, error) {
		st, err := s.Get(ctx)
		if err != nil {
			return engine.Overrides{}, err
		}
		return engine.Overrides{
			ShopName: st.ShopName, Currency: st.Currency, PromptExtra: st.PromptExtra, Model: st.Model,
			MaxRounds: st.MaxRounds, RateLimit: st.RateLimit, RateWindow: st.RateWindow,
		}, nil
	}
}
