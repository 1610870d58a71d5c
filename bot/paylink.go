package main

import (
	"context"
	"errors"
	"sync/atomic"

	"shopbot/adapters/telegram"
	"shopbot/engine/view"
)

// paymentLinks are where agents' orders are paid (engine Config
// PaymentLink): Telegram invoice links when Telegram Payments are
// configured (TELEGRAM_BOT_TOKEN and TELEGRAM_PAYMENT_PROVIDER_TOKEN).
// The engine is built before the Telegram adapter that makes the links,
// so the adapter is set once built (use).
type paymentLinks struct {
	tg atomic.Pointer[telegram.Adapter]
}

// errNoPaymentLink: the adapter that makes links is not running.
var errNoPaymentLink = errors.New("bot: no payment link configured")

// newPaymentLinks is the engine's PaymentLink for cfg: nil (the order
// awaits payment the merchant takes) without Telegram Payments.
func newPaymentLinks(cfg *Config) (*paymentLinks, func(context.Context, *view.OrderView) (string, error)) {
	if cfg.TelegramBotToken == "" || cfg.telegramTokenErr != "" || cfg.TelegramPaymentToken == "" {
		return &paymentLinks{}, nil
	}
	p := &paymentLinks{}
	return p, p.link
}

// use makes links with the Telegram adapter (nil: none).
func (p *paymentLinks) use(tg *telegramBot) {
	if tg != nil && tg.a != nil {
		p.tg.Store(tg.a)
	}
}

func (p *paymentLinks) link(ctx context.Context, o *view.OrderView) (string, error) {
	a := p.tg.Load()
	if a == nil {
		return "", errNoPaymentLink
	}
	return a.InvoiceLink(ctx, o)
}
