package main

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

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
// (a bot without one, that does nothing, otherwise) and registers it with
// the hub for shopper notices.
//
// A token of the wrong shape builds nothing either: the channel board
// shows the mistake and the shop runs without Telegram. received hears of
// each update (the board's receiver).
func newTelegram(cfg *Config, db *bun.DB, eng *engine.Engine, hub *adapters.Hub, reg prometheus.Registerer, log *slog.Logger, received func(time.Time)) (*telegramBot, error) {
	if cfg.TelegramBotToken == "" || cfg.telegramTokenErr != "" {
		return &telegramBot{}, nil
	}
	a, err := telegram.New(telegram.Config{
		Token: cfg.TelegramBotToken, APIURL: cfg.TelegramAPIURL,
		WebhookURL: cfg.TelegramWebhookURL, WebhookSecret: cfg.TelegramWebhookSecret,
		PaymentToken: cfg.TelegramPaymentToken, ShopName: cfg.ShopName,
		Engine: eng, Shop: eng, DB: db, Logger: log.With("adapter", "telegram"), Registry: reg,
		Received: received,
		Lease:    cfg.cover.lease,
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
	if t.a == nil || cfg.TelegramWebhookURL == "" {
		return nil
	}
	return t.a
}

// start runs the bot until ctx ends; call it once the database is ready.
// An adapter that gives up (a refused token) is shown stopped on board.
func (t *telegramBot) start(ctx context.Context, log *slog.Logger, board *channelBoard) {
	if t.a == nil {
		return
	}
	go func() {
		defer close(t.done)
		if err := t.a.Run(ctx); err != nil {
			log.ErrorContext(ctx, "telegram adapter stopped", "err", err)
			board.stopped("telegram", "the adapter stopped: "+explainTelegram(err)+"; restart shopbot once it is fixed")
		}
	}()
}

// wait blocks until the started bot has finished its turns in flight.
func (t *telegramBot) wait() {
	if t.a != nil {
		<-t.done
	}
}

// telegramProbe is how the channel board checks Telegram: not at all
// when the token is unset or malformed (t has no adapter then), else by
// getMe.
func telegramProbe(c *Config, t *telegramBot) channelProbe {
	p := channelProbe{name: "telegram", mode: c.telegramMode(), explain: explainTelegram}
	switch {
	case c.TelegramBotToken == "":
		p.off = "TELEGRAM_BOT_TOKEN unset"
	case c.telegramTokenErr != "":
		p.configErr = c.telegramTokenErr
	case t.a != nil:
		p.check = func(ctx context.Context) (string, error) {
			name, err := t.a.Check(ctx)
			return "@" + name, err
		}
	}
	return p
}

// explainTelegram is a failed check in a sentence.
func explainTelegram(err error) string {
	var refused *telegram.TokenRefusedError
	switch {
	case errors.As(err, &refused):
		return "the token was refused by Telegram (" + refused.Status + ") — check TELEGRAM_BOT_TOKEN"
	case errors.Is(err, context.DeadlineExceeded):
		return "Telegram did not answer in time (getMe) — check the network or TELEGRAM_API_URL; checked again every " + statusEvery.String()
	}
	return "Telegram could not be reached (" + err.Error() + ") — checked again every " + statusEvery.String()
}

// malformedTelegramToken is the error shown for a token of the wrong shape.
const malformedTelegramToken = "TELEGRAM_BOT_TOKEN is not a bot token (BotFather's tokens look like 123456789:AAH… — digits, a colon, then 30 or more letters, digits, - or _); Telegram is not started"

// telegramMode says how the adapter runs.
func (c *Config) telegramMode() string {
	mode := "long polling"
	if c.TelegramWebhookURL != "" {
		mode = "webhook " + c.TelegramWebhookURL
	}
	if c.TelegramPaymentToken != "" {
		mode += ", payments on"
	}
	return mode
}

var _ engine.Notifier = (*telegram.Adapter)(nil)
