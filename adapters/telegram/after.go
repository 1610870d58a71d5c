package telegram

import (
	"context"
	"encoding/json"

	"github.com/go-telegram/bot/models"

	"shopbot/catalog"
	"shopbot/engine"
	"shopbot/engine/tools"
)

// afterTurn does what follows a turn: the invoice for an order it placed
// (with payments enabled) and, when checkout now waits for a phone
// number in a private chat, a keyboard to share it with one tap.
func (a *Adapter) afterTurn(ctx context.Context, chat models.Chat, t engine.Turn, r *reply) {
	if r.gone {
		return
	}
	if r.placed != nil && a.cfg.PaymentToken != "" {
		a.invoice(ctx, chat.ID, r.placed, t.Locale)
	}
	if chat.Type == models.ChatTypePrivate && a.awaiting(ctx, t) == "phone" {
		kb := &models.ReplyKeyboardMarkup{
			Keyboard:        [][]models.KeyboardButton{{{Text: text(t.Locale, txtSharePhoneButton), RequestContact: true}}},
			ResizeKeyboard:  true,
			OneTimeKeyboard: true,
		}
		a.say(ctx, chat.ID, esc(text(t.Locale, txtSharePhone)), kb)
	}
}

// awaiting reads which contact detail the engine's checkout asked for.
func (a *Adapter) awaiting(ctx context.Context, t engine.Turn) string {
	var raw string
	err := a.cfg.DB.NewSelect().Model((*catalog.Conversation)(nil)).Column("state").
		Where("channel = ?", t.Channel).Where("chat_id = ?", t.ChatID).Where("thread_id = ?", t.ThreadID).
		Limit(1).Scan(ctx, &raw)
	if err != nil {
		if !isNoRows(err) {
			a.log.WarnContext(ctx, "telegram: conversation state unreadable", "err", err)
		}
		return ""
	}
	var st tools.State
	if json.Unmarshal([]byte(raw), &st) != nil || st.Checkout == nil {
		return ""
	}
	return st.Checkout.Awaiting
}
