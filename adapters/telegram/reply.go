package telegram

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"shopbot/engine"
	"shopbot/engine/view"
)

// reply renders one turn's events in a chat: text is gathered into
// segments (streamed while it grows, sent as messages split at 4,096
// characters when a card, cart or the end of the turn closes it); quick
// replies become an inline keyboard under the last message.
type reply struct {
	a       *Adapter
	chat    models.Chat
	turn    engine.Turn
	pressed *pressed
	slot    *slot
	started time.Time

	seg        strings.Builder // the text segment being written (model Markdown)
	segStart   time.Time
	stream     *streamer
	buttons    []view.Button
	placed     *view.OrderView // an order this turn placed
	awaiting   engine.Awaiting // what checkout waits for after the turn
	lastTyping time.Time
	cartShown  bool // the cart was rendered in this turn
	gone       bool
}

func (a *Adapter) newReply(chat models.Chat, t engine.Turn, p *pressed, sl *slot) *reply {
	return &reply{a: a, chat: chat, turn: t, pressed: p, slot: sl, started: a.now()}
}

// pace waits for the chat's next message slot, giving up the turn's
// concurrency slot meanwhile.
func (r *reply) pace(ctx context.Context) error {
	d := r.a.pacer.reserve(r.chat.ID, time.Now())
	if d <= 0 {
		return nil
	}
	r.slot.Release()
	err := sleep(ctx, d)
	if !r.slot.Acquire(ctx) && err == nil {
		err = ctx.Err()
	}
	return err
}

// send posts an HTML message, paced.
func (r *reply) send(ctx context.Context, html string, markup models.ReplyMarkup) (int, error) {
	if err := r.pace(ctx); err != nil {
		return 0, err
	}
	return r.a.post(ctx, r.chat.ID, html, markup, false)
}

// Send implements engine.Sink. Rendering problems are logged, not
// returned, except an unreachable chat, which ends the turn early.
func (r *reply) Send(ctx context.Context, ev engine.Event) error {
	if r.gone {
		return errChatGone
	}
	switch ev.Kind {
	case engine.EventTyping:
		r.typing(ctx)
	case engine.EventText:
		r.text(ctx, ev.Text)
	case engine.EventCards:
		r.flush(ctx, false)
		r.cards(ctx, ev.Cards)
	case engine.EventCart:
		r.flush(ctx, false)
		r.pickedDone(ctx, ev.Cart)
		r.cart(ctx, ev.Cart)
	case engine.EventPicker:
		r.flush(ctx, false)
		if ev.Picker != nil {
			r.picker(ctx, ev.Picker)
		}
	case engine.EventOrder:
		r.flush(ctx, false)
		r.order(ctx, ev.Order)
	case engine.EventButtons:
		r.buttons = append(r.buttons, ev.Buttons...)
	case engine.EventDone:
		r.awaiting = ev.Awaiting
		r.flush(ctx, true)
	case engine.EventError:
		if r.seg.Len() > 0 {
			r.seg.WriteString("\n\n")
		}
		r.seg.WriteString(ev.Text)
		r.buttons = nil
		r.flush(ctx, true)
	}
	if r.gone {
		return errChatGone
	}
	return nil
}

// close sends whatever a turn that ended without EventDone left behind.
func (r *reply) close(ctx context.Context) {
	if r.seg.Len() > 0 || len(r.buttons) > 0 {
		r.flush(ctx, true)
	}
}

func (r *reply) typing(ctx context.Context) {
	if r.a.now().Sub(r.lastTyping) < 4*time.Second {
		return
	}
	r.lastTyping = r.a.now()
	r.check(ctx, r.a.call(ctx, r.chat.ID, "sendChatAction", false, func(ctx context.Context) error {
		_, err := r.a.bot.SendChatAction(ctx, &bot.SendChatActionParams{ChatID: r.chat.ID, Action: models.ChatActionTyping})
		return err
	}))
}

func (r *reply) text(ctx context.Context, delta string) {
	if r.seg.Len() == 0 {
		r.segStart = r.a.now()
	}
	r.seg.WriteString(delta)
	now := r.a.now()
	if now.Sub(r.segStart) < r.a.cfg.StreamAfter {
		return // a quick answer is sent once, whole
	}
	if r.stream == nil {
		r.stream = &streamer{r: r, draftID: int(r.a.draftSeq.Add(1))}
	}
	r.stream.update(ctx, now)
}

// flush sends the text segment; final attaches the quick replies.
func (r *reply) flush(ctx context.Context, final bool) {
	if final && r.cartShown && r.pressed != nil && cartChange(r.pressed.action.Kind) {
		// "Added to the cart." is said by the toast and the updated cart
		// message; a message per press would bury the conversation.
		r.seg.Reset()
		r.buttons, r.stream = nil, nil
		return
	}
	parts := splitMessage(r.seg.String(), maxText)
	var kb models.ReplyMarkup
	if final && len(r.buttons) > 0 {
		kb = r.a.keyboard(ctx, r.buttons)
		r.buttons = nil
		if len(parts) == 0 {
			parts = []string{esc(text(r.turn.Locale, txtChoose))}
		}
	}
	st := r.stream
	r.seg.Reset()
	r.stream = nil
	if len(parts) == 0 {
		return
	}
	if st != nil && st.finish(ctx, parts, kb) {
		return
	}
	for i, p := range parts {
		var markup models.ReplyMarkup
		if i == len(parts)-1 {
			markup = kb
		}
		_, err := r.send(ctx, p, markup)
		if r.check(ctx, err) {
			return
		}
	}
}

// check logs a failed call and reports whether the turn should stop
// rendering (the chat is gone).
func (r *reply) check(ctx context.Context, err error) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, errChatGone):
		r.gone = true
		return true
	default:
		r.a.log.WarnContext(ctx, "telegram send failed", "chat_id", r.chat.ID, "err", err)
		return false
	}
}

// keyboard turns quick replies into an inline keyboard, two per row.
// Buttons whose callback data would exceed Telegram's 64 bytes are left
// out (and logged) rather than failing the message.
func (a *Adapter) keyboard(ctx context.Context, bs []view.Button) models.ReplyMarkup {
	var rows [][]inlineButton
	var row []inlineButton
	for _, b := range bs {
		btn, ok := a.inlineButton(ctx, truncateVisible(b.Label, 40), b.Action)
		if !ok {
			continue
		}
		row = append(row, btn)
		if len(row) == 2 {
			rows, row = append(rows, row), nil
		}
	}
	if len(row) > 0 {
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil
	}
	return &inlineKeyboard{InlineKeyboard: rows}
}

// inlineKeyboard is reply_markup with callback buttons only. (The
// library's button type always encodes "copy_text", which Telegram
// rejects as BUTTON_COPY_TEXT_INVALID when empty.)
type inlineKeyboard struct {
	InlineKeyboard [][]inlineButton `json:"inline_keyboard"`
}

type inlineButton struct {
	Text         string `json:"text"`
	CallbackData string `json:"callback_data"`
}

// maxCallbackData is Telegram's limit on callback_data, in bytes.
const maxCallbackData = 64

func (a *Adapter) inlineButton(ctx context.Context, label string, act view.Action) (inlineButton, bool) {
	data := act.Encode()
	if len(data) > maxCallbackData {
		a.log.WarnContext(ctx, "telegram: button left out, callback data over 64 bytes", "data", truncateVisible(data, 80))
		return inlineButton{}, false
	}
	return inlineButton{Text: label, CallbackData: data}, true
}

// send posts an HTML message (paced) and returns its id.
func (a *Adapter) send(ctx context.Context, chat int64, html string, markup models.ReplyMarkup) (int, error) {
	return a.post(ctx, chat, html, markup, true)
}

func (a *Adapter) post(ctx context.Context, chat int64, html string, markup models.ReplyMarkup, paced bool) (int, error) {
	var id int
	err := a.call(ctx, chat, "sendMessage", paced, func(ctx context.Context) error {
		m, err := a.bot.SendMessage(ctx, &bot.SendMessageParams{
			ChatID: chat, Text: html, ParseMode: models.ParseModeHTML, ReplyMarkup: markup,
			LinkPreviewOptions: &models.LinkPreviewOptions{IsDisabled: bot.True()},
		})
		if m != nil {
			id = m.ID
		}
		return err
	})
	return id, err
}

// say sends a message that is already HTML, logging a failure.
func (a *Adapter) say(ctx context.Context, chat int64, html string, markup models.ReplyMarkup) {
	if _, err := a.send(ctx, chat, html, markup); err != nil && !errors.Is(err, errChatGone) {
		a.log.WarnContext(ctx, "telegram send failed", "chat_id", chat, "err", err)
	}
}

// edit replaces a message's text; "not modified" counts as success.
func (a *Adapter) edit(ctx context.Context, chat int64, id int, html string, markup models.ReplyMarkup) error {
	err := a.call(ctx, chat, "editMessageText", false, func(ctx context.Context) error {
		_, err := a.bot.EditMessageText(ctx, &bot.EditMessageTextParams{
			ChatID: chat, MessageID: id, Text: html, ParseMode: models.ParseModeHTML, ReplyMarkup: markup,
			LinkPreviewOptions: &models.LinkPreviewOptions{IsDisabled: bot.True()},
		})
		return err
	})
	if err != nil && strings.Contains(err.Error(), "message is not modified") {
		return nil
	}
	return err
}
