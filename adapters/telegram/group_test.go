package telegram

import (
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"

	"shopbot/adapters/telegram/telegramtest"
	"shopbot/catalog/catalogtest"
)

// TestGroup: in a group the bot answers mentions, replies to it and
// commands, ignores the rest, and keeps one cart that says who added what.
func TestGroup(t *testing.T) {
	r := newRig(t, catalogtest.SQLiteDemo(t), nil)
	group := models.Chat{ID: -2001, Type: models.ChatTypeSupergroup, Title: "Team"}
	ann, bob := telegramtest.User(2101, "Ann"), telegramtest.User(2102, "Bob")

	r.waitHandled(r.srv.Push(telegramtest.Group(group.ID, ann, "zanzibar mug please")))
	r.waitHandled(r.srv.Push(telegramtest.Group(group.ID, bob, "/help@other_bot")))
	if calls := r.sent("-2001"); len(calls) != 0 {
		t.Fatalf("answered a message not addressed to it:\n%s", telegramtest.Dump(calls))
	}

	r.srv.Push(telegramtest.Group(group.ID, ann, "@shop_test_bot zanzibar mug"))
	card := r.waitSent("-2001", "the card", func(c telegramtest.Call) bool { return c.Method == "sendPhoto" })
	add := card.Buttons()["🛒 Add to cart"]
	r.waitHandled(r.srv.Push(telegramtest.Callback(group, ann, card.MessageID, add)))
	r.srv.Push(telegramtest.Callback(group, bob, card.MessageID, add))
	cart := r.waitSent("-2001", "the shared cart with two units", func(c telegramtest.Call) bool {
		return strings.Contains(c.Text(), "Group cart") && strings.Contains(c.Text(), "× 2")
	})
	if !strings.Contains(cart.Text(), "added by Ann") {
		t.Errorf("shared cart does not say who added: %q", cart.Text())
	}

	r.srv.Push(telegramtest.Reply(group, bob, "and my orders?", r.srv.Bot, card.MessageID))
	r.waitSent("-2001", "an answer to a reply", func(c telegramtest.Call) bool {
		return c.Time.After(cart.Time) && c.Method == "sendMessage" && !strings.Contains(c.Text(), "Group cart")
	})
	r.srv.Push(telegramtest.Group(group.ID, bob, "/cart@shop_test_bot"))
	r.waitSent("-2001", "the cart by command", func(c telegramtest.Call) bool {
		return c.Method == "sendMessage" && strings.Contains(c.Text(), "Group cart")
	})
}
