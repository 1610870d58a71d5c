package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"
	"go.opentelemetry.io/otel/trace"

	"shopbot/catalog/chatlock"
	"shopbot/engine"
	"shopbot/engine/llm"
	"shopbot/engine/openai"
	"shopbot/engine/view"
)

// chatLocks are the cross-process chat locks on Postgres, where replicas
// share the database: one chat's turns run in order whichever process
// receives them. SQLite has one process; the engine's own locks suffice.
func chatLocks(cfg *Config) (engine.ChatLocker, func()) {
	if !strings.HasPrefix(cfg.DatabaseURL, "postgres") {
		return nil, func() {}
	}
	// DB_LOCK_CONNS sessions hold this process's chat locks; each holds
	// any number of them.
	locks := chatlock.Open(cfg.DatabaseURL, cfg.pool.lockConns)
	return locks, func() { locks.Close() }
}

// newEngine builds the conversation engine: the OpenAI-compatible model
// when configured, else the offline planner alone. notify hears of orders
// placed and handoffs (nil drops them); payLink, where agents' orders
// are paid (nil: nowhere; paylink.go). closeEngine releases what the
// engine holds beyond db (the chat lock pool on Postgres).
func newEngine(cfg *Config, db *bun.DB, searcher *searchBackend, reg prometheus.Registerer, log *slog.Logger, notify engine.Notifier, tp trace.TracerProvider, payLink func(context.Context, *view.OrderView) (string, error)) (eng *engine.Engine, closeEngine func(), err error) {
	model := newModel(cfg, log)
	locks, closeEngine := chatLocks(cfg)
	eng, err = engine.New(engine.Config{
		DB:          db,
		Search:      searcher,
		Pages:       searcher.pages,
		Model:       model,
		ShopName:    cfg.ShopName,
		Currency:    cfg.ShopCurrency,
		MaxRounds:   cfg.engine.maxRounds,
		RateLimit:   cfg.engine.rateTurns,
		RateWindow:  cfg.engine.rateWindow,
		DailyTokens: cfg.engine.dailyTokens,
		ChatLocks:   locks,
		Settings:    shopSettings(cfg, db).Get, // merchant settings, live (admin.go)
		Notifier:    notify,
		Logger:      log,
		Registry:    reg,
		Tracer:      tp,
		// After-sale (issue 30): RETURN_WINDOW_DAYS.
		ReturnWindow: returnWindow(cfg.engine.returnDays),
		PaymentLink:  payLink,
	})
	if err != nil {
		closeEngine()
		return nil, nil, err
	}
	return eng, closeEngine, nil
}

// newModel is the configured OpenAI-compatible model, nil when neither a
// key nor a base URL is set (the offline planner answers).
func newModel(cfg *Config, log *slog.Logger) llm.Model {
	if cfg.OpenAIAPIKey == "" && cfg.OpenAIBaseURL == "" {
		return nil
	}
	return openai.New(openai.Config{
		APIKey: cfg.OpenAIAPIKey, BaseURL: cfg.OpenAIBaseURL, Model: cfg.OpenAIModel, Logger: log,
	})
}

// modelProbe is how the channel board checks the model server: its models
// list (GET /models), with a client of its own so the checks never share
// the chats' retries.
func modelProbe(cfg *Config, log *slog.Logger) channelProbe {
	p := channelProbe{name: "model", explain: explainModel}
	if cfg.OpenAIAPIKey == "" && cfg.OpenAIBaseURL == "" {
		p.off = cfg.modelStatus()
		return p
	}
	p.mode = cfg.modelStatus()
	c := openai.New(openai.Config{APIKey: cfg.OpenAIAPIKey, BaseURL: cfg.OpenAIBaseURL, Model: cfg.OpenAIModel, MaxRetries: -1, Logger: log})
	p.check = func(ctx context.Context) (string, error) {
		r, err := c.Check(ctx)
		return modelIdentity(cfg.OpenAIModel, r), err
	}
	return p
}

// modelIdentity names the model and what the server said of it.
func modelIdentity(model string, r openai.Reach) string {
	switch {
	case !r.Listed:
		return model + " (the server does not list its models)"
	case r.Models > 0 && !r.HasModel:
		return fmt.Sprintf("%s (not among the server's %d models — check OPENAI_MODEL or the panel's Model setting)", model, r.Models)
	}
	return model
}

// explainModel is a failed check in a sentence.
func explainModel(err error) string {
	var refused *openai.KeyRefusedError
	switch {
	case errors.As(err, &refused):
		return "the API key was refused by the model server (" + refused.Status + ") — check OPENAI_API_KEY; the offline planner answers meanwhile"
	case errors.Is(err, context.DeadlineExceeded):
		return "the model server did not answer in time — check OPENAI_BASE_URL or the network; the offline planner answers meanwhile"
	}
	return "the model server could not be reached (" + err.Error() + ") — the offline planner answers meanwhile"
}
