package main

import (
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/engine"
)

// newEngine builds the conversation engine: the OpenAI-compatible model
// when configured, else the offline planner alone.
func newEngine(cfg *Config, db *bun.DB, searcher engine.Searcher, notifier engine.Notifier, reg prometheus.Registerer, log *slog.Logger) (*engine.Engine, error) {
	var model engine.Model
	if cfg.OpenAIAPIKey != "" || cfg.OpenAIBaseURL != "" {
		model = engine.NewOpenAI(engine.OpenAIConfig{
			APIKey: cfg.OpenAIAPIKey, BaseURL: cfg.OpenAIBaseURL, Model: cfg.OpenAIModel, Logger: log,
		})
	}
	return engine.New(engine.Config{
		DB:          db,
		Search:      searcher,
		Model:       model,
		ShopName:    cfg.ShopName,
		Currency:    cfg.ShopCurrency,
		MaxRounds:   cfg.engine.maxRounds,
		RateLimit:   cfg.engine.rateTurns,
		RateWindow:  cfg.engine.rateWindow,
		DailyTokens: cfg.engine.dailyTokens,
		Notifier:    notifier,
		Logger:      log,
		Registry:    reg,
	})
}
