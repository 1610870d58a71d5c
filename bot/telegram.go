package main

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/adapters"
	"shopbot/adapters/telegram"
	"shopbot/engine"
)

// telegramBot is the Telegram adapter as serve runs it.
type telegramBot struct {
	a    *telegram.Adapter
	done chan struct{}
}

// newTelegram builds the Telegram adapter when TELEGRAM_BOT_TOKEN is set
// (nil otherwise) and registers it with the hub for shopper notices.
func newTelegram(cfg *Config, db *bun.DB, eng *engine.Engine, hub *adapters.Hub, reg prometheus.Registerer, log *slog.Logger) (*telegramBot, error) {
	if cfg.TelegramBotToken == "" {
		return nil, nil
	}
	a, err := telegram.New(telegram.Config{
		Token: cfg.TelegramBotToken, APIURL: cfg.TelegramAPIURL,
		WebhookURL: cfg.TelegramWebhookURL, WebhookSecret: cfg.TelegramWebhookSecret,
		PaymentToken: cfg.TelegramPaymentToken, ShopName: cfg.ShopName,
		Engine: eng, Shop: eng, DB: db, Logger: log.With("adapter", "telegram"), Registry: reg,
		Lease: cfg.cover.lease,
	})
	if err != nil {
		return nil, err
	}
	hub.Shoppers("telegram", a)
	return &telegramBot{a: a, done: make(chan struct{})}, nil
}

// webhook is the handler of webhook updates: nil without Telegram or in
// long-polling mode.
func (t *telegramBot) webhook(cfg *Config) http.Handler {
	if t == nil || cfg.TelegramWebhookURL == "" {
		return nil
	}
	return t.a
}

// start runs the bot until ctx ends; call it once the database is ready.
func (t *telegramBot) start(ctx context.Context, log *slog.Logger) {
	if t == nil {
		return
	}
	go func() {
		defer close(t.done)
		if err := t.a.Run(ctx); err != nil {
			log.Error("telegram adapter stopped", "err", err)
		}
	}()
}

// wait blocks until the started bot has finished its turns in flight.
func (t *telegramBot) wait() {
	if t != nil {
		<-t.done
	}
}

// telegramStatus is the startup banner's telegram line.
func (c *Config) telegramStatus() string {
	switch {
	case c.TelegramBotToken == "":
		return "off (TELEGRAM_BOT_TOKEN unset)"
	case c.TelegramWebhookURL != "":
		return "on (webhook " + c.TelegramWebhookURL + ")" + paymentsNote(c)
	default:
		return "on (long polling)" + paymentsNote(c)
	}
}

func paymentsNote(c *Config) string {
	if c.TelegramPaymentToken != "" {
		return ", payments on"
	}
	return ""
}

var _ engine.Notifier = (*telegram.Adapter)(nil)
