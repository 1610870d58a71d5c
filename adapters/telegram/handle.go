package telegram

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"shopbot/engine"
	"shopbot/engine/view"
)

// handle claims one recorded update, runs it and marks it handled. An
// update another replica has taken over is not run here; one cut short
// by shutdown stays unhandled, is released, and runs at the next sweep.
func (a *Adapter) handle(ctx context.Context, j job) {
	u := j.update
	if !a.claim(ctx, u) {
		return
	}
	switch {
	case u.PreCheckoutQuery != nil:
		a.preCheckout(ctx, u.PreCheckoutQuery)
	case u.CallbackQuery != nil:
		a.button(ctx, u, j)
	case u.Message != nil && u.Message.SuccessfulPayment != nil:
		a.paid(ctx, u.Message)
	case u.Message != nil:
		a.message(ctx, u, j.slot)
	}
	if ctx.Err() != nil {
		return
	}
	if err := a.inbox.Done(context.WithoutCancel(ctx), updateKey(u)); err != nil {
		a.log.ErrorContext(ctx, "telegram update handled but not marked; it will run again (the engine recognises the replay)", "update_id", u.ID, "err", err)
		a.releaseOne(ctx, u)
	}
}

// message turns a chat message into a turn: text, a command, or a shared
// contact. In groups the bot answers only when addressed.
func (a *Adapter) message(ctx context.Context, u *models.Update, sl *slot) {
	m := u.Message
	if m.From == nil || m.From.IsBot {
		return
	}
	t := a.turnBase(m.Chat, *m.From, u.ID)
	switch {
	case m.Contact != nil:
		if m.Chat.Type != models.ChatTypePrivate || m.Contact.UserID != m.From.ID {
			a.say(ctx, m.Chat.ID, text(t.Locale, txtOwnContact), nil)
			return
		}
		t.Text = m.Contact.PhoneNumber
	case strings.HasPrefix(m.Text, "/"):
		if !a.command(ctx, m, &t) {
			return
		}
	default:
		txt, addressed := a.addressed(m)
		if !addressed {
			return
		}
		t.Text = txt
	}
	a.turn(ctx, m.Chat, t, nil, sl)
}

// addressed reports whether a message is for the bot and returns its text
// without the @mention: every private message, and in groups a mention
// or a reply to the bot.
func (a *Adapter) addressed(m *models.Message) (string, bool) {
	txt := strings.TrimSpace(m.Text)
	if m.Chat.Type == models.ChatTypePrivate {
		return txt, txt != ""
	}
	me := a.me.Load()
	if me == nil {
		return "", false
	}
	mention := "@" + me.Username
	if strings.Contains(strings.ToLower(txt), strings.ToLower(mention)) {
		i := strings.Index(strings.ToLower(txt), strings.ToLower(mention))
		txt = strings.TrimSpace(txt[:i] + txt[i+len(mention):])
		return txt, txt != ""
	}
	if r := m.ReplyToMessage; r != nil && r.From != nil && r.From.ID == me.ID {
		return txt, txt != ""
	}
	return "", false
}

// turnBase fills a turn's identity from the verified update. Names and
// the language code go as Telegram sent them: engine.Handle cleans and
// bounds every field (a NUL in a first_name never reaches the database).
func (a *Adapter) turnBase(chat models.Chat, from models.User, updateID int64) engine.Turn {
	return engine.Turn{
		Channel:  "telegram",
		ChatID:   strconv.FormatInt(chat.ID, 10),
		UserID:   strconv.FormatInt(from.ID, 10),
		UserName: from.FirstName + " " + from.LastName,
		Username: from.Username,
		Locale:   from.LanguageCode,
		Shared:   chat.Type != models.ChatTypePrivate,
		DedupKey: "tg" + strconv.FormatInt(updateID, 10),
	}
}

// button handles a press of an inline button.
func (a *Adapter) button(ctx context.Context, u *models.Update, j job) {
	q := u.CallbackQuery
	chat, msgID := callbackChat(q)
	if chat == nil {
		return // a button of an inline message: not ours
	}
	act, err := view.ParseAction(q.Data)
	if err != nil {
		a.log.WarnContext(ctx, "telegram: bad callback data", "err", err) // the toast said so
		return
	}
	t := a.turnBase(*chat, q.From, u.ID)
	t.Action = &act
	p := &pressed{action: act, messageID: msgID}
	if m := q.Message.Message; m != nil {
		p.photo, p.picker = len(m.Photo) > 0, pickerMessage(m)
	}
	a.turn(ctx, *chat, t, p, j.slot)
}

func callbackChat(q *models.CallbackQuery) (*models.Chat, int) {
	switch {
	case q.Message.Message != nil:
		return &q.Message.Message.Chat, q.Message.Message.ID
	case q.Message.InaccessibleMessage != nil:
		return &q.Message.InaccessibleMessage.Chat, q.Message.InaccessibleMessage.MessageID
	}
	return nil, 0
}

// pressed is the button behind a turn: its action, and the message that
// held it (a photo: edits change its caption; a variant picker: picker.go).
type pressed struct {
	action    view.Action
	messageID int
	photo     bool
	picker    bool
}

// turn runs a turn through the engine and renders the reply.
func (a *Adapter) turn(ctx context.Context, chat models.Chat, t engine.Turn, p *pressed, sl *slot) {
	r := a.newReply(chat, t, p, sl)
	err := a.cfg.Engine.Handle(ctx, t, r)
	r.close(ctx)
	switch {
	case errors.Is(err, engine.ErrRateLimited):
		a.say(ctx, chat.ID, engine.PoliteMessage(err, t.Locale), nil)
	case errors.Is(err, engine.ErrBadTurn):
		a.say(ctx, chat.ID, text(t.Locale, txtTooLong), nil)
	case errors.Is(err, engine.ErrReplayed): // answered before the restart
	case err != nil:
		a.log.ErrorContext(ctx, "telegram turn failed", "chat_id", chat.ID, "err", err) // the engine told the shopper
	}
	if err == nil {
		a.afterTurn(ctx, chat, t, r)
	}
}

// answerAtOnce answers a button press as soon as it is recorded, before
// it waits its turn in the chat's queue: the spinner stops at once, with a
// toast saying what the press will do. The turn then changes the cart
// (and the cart message) in order.
func (a *Adapter) answerAtOnce(q *models.CallbackQuery, received time.Time) {
	a.side.Add(1)
	go func() {
		defer a.side.Done()
		ctx := a.ctx
		toast := a.toast(ctx, q)
		err := a.call(ctx, 0, "answerCallbackQuery", false, func(ctx context.Context) error {
			_, err := a.bot.AnswerCallbackQuery(ctx, &bot.AnswerCallbackQueryParams{CallbackQueryID: q.ID, Text: toast})
			return err
		})
		a.metrics.callback.Observe(time.Since(received).Seconds())
		if err != nil {
			a.log.WarnContext(ctx, "telegram callback not answered", "err", err)
		}
	}()
}

// toastCheckWithin bounds the stock check behind an "Added ✓".
const toastCheckWithin = 400 * time.Millisecond

// toast is the answer to a press: Added ✓ when the product can be added,
// a reason when not, nothing for buttons that answer in the chat.
func (a *Adapter) toast(ctx context.Context, q *models.CallbackQuery) string {
	locale := q.From.LanguageCode
	act, err := view.ParseAction(q.Data)
	if err != nil {
		return text(locale, txtStaleButton)
	}
	switch act.Kind {
	case view.ActAdd:
		ctx, cancel := context.WithTimeout(ctx, toastCheckWithin)
		defer cancel()
		can, err := a.cfg.Shop.CanAdd(ctx, act.SKU)
		switch {
		case err != nil:
			return "" // the chat will say what happened, or ask which variant
		case !can:
			return text(locale, txtSoldOut)
		}
		return text(locale, txtAdded)
	case view.ActSet:
		return text(locale, txtUpdated)
	case view.ActRemove:
		return text(locale, txtRemoved)
	}
	return ""
}
