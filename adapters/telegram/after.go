package telegram

import (
	"context"

	"github.com/go-telegram/bot/models"

	"shopbot/engine"
)

// afterTurn does what follows a turn: the invoice for an order it placed
// (with payments enabled) and, when checkout now waits for a phone
// number in a private chat (the turn's EventDone says so), a keyboard to
// share it with one tap.
func (a *Adapter) afterTurn(ctx context.Context, chat models.Chat, t engine.Turn, r *reply) {
	if r.gone {
		return
	}
	if r.placed != nil && a.cfg.PaymentToken != "" {
		a.invoice(ctx, chat.ID, r.placed, t.Locale)
	}
	if chat.Type == models.ChatTypePrivate && r.awaiting == engine.AwaitingPhone {
		kb := &models.ReplyKeyboardMarkup{
			Keyboard:        [][]models.KeyboardButton{{{Text: text(t.Locale, txtSharePhoneButton), RequestContact: true}}},
			ResizeKeyboard:  true,
			OneTimeKeyboard: true,
		}
		a.say(ctx, chat.ID, esc(text(t.Locale, txtSharePhone)), kb)
	}
}
