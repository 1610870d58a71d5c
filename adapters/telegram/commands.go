package telegram

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"shopbot/engine"
	"shopbot/engine/view"
)

// commands are registered with setMyCommands at startup.
var commands = []struct{ name, en, ru string }{
	{"start", "Welcome and categories", "Приветствие и категории"},
	{"menu", "Browse categories", "Категории"},
	{"cart", "Your cart", "Корзина"},
	{"orders", "Your orders", "Заказы"},
	{"help", "What I can do", "Что я умею"},
}

func (a *Adapter) setCommands(ctx context.Context) {
	for _, lang := range []string{"", "ru"} {
		var cmds []models.BotCommand
		for _, c := range commands {
			d := c.en
			if lang == "ru" {
				d = c.ru
			}
			cmds = append(cmds, models.BotCommand{Command: c.name, Description: d})
		}
		err := a.call(ctx, 0, "setMyCommands", false, func(ctx context.Context) error {
			_, err := a.bot.SetMyCommands(ctx, &bot.SetMyCommandsParams{Commands: cmds, LanguageCode: lang})
			return err
		})
		if err != nil {
			a.log.WarnContext(ctx, "telegram commands not registered", "lang", lang, "err", err)
		}
	}
}

// startPayload is what a deep link may carry (t.me/bot?start=SKU).
var startPayload = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// command turns /start, /help, /cart, /orders and /menu into actions that
// need no model. It reports whether the turn should run; /help answers
// by itself, and a command for another bot in a group is ignored.
func (a *Adapter) command(ctx context.Context, m *models.Message, t *engine.Turn) bool {
	word, arg, _ := strings.Cut(strings.TrimSpace(m.Text), " ")
	name, target, _ := strings.Cut(strings.TrimPrefix(word, "/"), "@")
	if target != "" && !strings.EqualFold(target, a.username()) {
		return false
	}
	arg = strings.TrimSpace(arg)
	switch strings.ToLower(name) {
	case "start":
		a.say(ctx, m.Chat.ID, fmt.Sprintf(text(t.Locale, txtWelcome), esc(a.cfg.ShopName)), nil)
		if startPayload.MatchString(arg) {
			t.Action = &view.Action{Kind: view.ActDetails, SKU: arg}
		} else {
			t.Action = &view.Action{Kind: view.ActCategories}
		}
	case "menu":
		t.Action = &view.Action{Kind: view.ActCategories}
	case "cart":
		t.Action = &view.Action{Kind: view.ActCart}
	case "orders":
		t.Action = &view.Action{Kind: view.ActOrders}
	case "help":
		a.say(ctx, m.Chat.ID, text(t.Locale, txtHelp), nil)
		return false
	default:
		if m.Chat.Type != models.ChatTypePrivate && target == "" {
			return false // addressed to another bot in the group, probably
		}
		a.say(ctx, m.Chat.ID, text(t.Locale, txtHelp), nil)
		return false
	}
	return true
}
