package telegram

import (
	"context"
	"strings"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"shopbot/engine/view"
)

// pickerPerRow is how many option values share a keyboard row;
// maxPickerButtons bounds a picker's keyboard (Telegram takes about 100
// buttons in one).
const (
	pickerPerRow     = 4
	maxPickerButtons = 100
)

// picker shows a variant picker: the product (a photo with a caption
// when it has an image), what was chosen so far, the question, and the
// values as an inline keyboard. A press on one of its values that leads
// to the next option redraws the same message in place.
func (r *reply) picker(ctx context.Context, p *view.Picker) {
	html := pickerHTML(p)
	kb := r.a.pickerKeyboard(ctx, p)
	if pr := r.pressed; pr != nil && pr.messageID != 0 && pr.action.Kind == view.ActOption {
		err := r.a.editMessage(ctx, r.chat.ID, pr.messageID, pr.photo, html, kb)
		if err == nil || r.check(ctx, err) {
			return
		}
		// The message is gone or cannot be edited: a new picker instead.
	}
	if p.ImageURL != "" && safeURL(p.ImageURL) {
		if r.check(ctx, r.pace(ctx)) {
			return
		}
		err := r.a.call(ctx, r.chat.ID, "sendPhoto", false, func(ctx context.Context) error {
			_, err := r.a.bot.SendPhoto(ctx, &bot.SendPhotoParams{
				ChatID: r.chat.ID, Photo: &models.InputFileString{Data: p.ImageURL},
				Caption: html, ParseMode: models.ParseModeHTML, ReplyMarkup: kb,
			})
			return err
		})
		if err == nil || r.check(ctx, err) {
			return
		}
		// Telegram could not fetch the image: a text picker instead.
	}
	_, err := r.send(ctx, html, kb)
	r.check(ctx, err)
}

// pickerHTML is the picker's text: title, price, the options chosen so
// far and the question. Every value is escaped; it fits a caption.
func pickerHTML(p *view.Picker) string {
	lines := []string{"<b>" + esc(truncateVisible(p.Title, 200)) + "</b> · " + esc(truncateVisible(p.PriceText, 40))}
	if len(p.Chosen) > 0 {
		var cs []string
		for _, c := range p.Chosen {
			cs = append(cs, esc(truncateVisible(c.Name, 40))+": <b>"+esc(truncateVisible(c.Value, 60))+"</b>")
		}
		lines = append(lines, strings.Join(cs, " · "))
	}
	prompt := p.Prompt
	if prompt == "" {
		prompt = p.Option + "?"
	}
	lines = append(lines, esc(truncateVisible(prompt, 200)))
	return strings.Join(lines, "\n")
}

// pickerKeyboard puts the values pickerPerRow to a row. A value whose
// callback data would pass 64 bytes is left out (and logged), like any
// inline button.
func (a *Adapter) pickerKeyboard(ctx context.Context, p *view.Picker) models.ReplyMarkup {
	var rows [][]inlineButton
	var row []inlineButton
	for i, b := range p.Values {
		if i == maxPickerButtons {
			a.log.WarnContext(ctx, "telegram: picker values cut", "sku", p.SKU, "values", len(p.Values))
			break
		}
		act := b.Action
		if act.Kind == "" { // a button built without its action
			var err error
			if act, err = view.ParseAction(b.Data); err != nil {
				a.log.WarnContext(ctx, "telegram: picker value left out", "err", err)
				continue
			}
		}
		btn, ok := a.inlineButton(ctx, truncateVisible(b.Label, 32), act)
		if !ok {
			continue
		}
		if row = append(row, btn); len(row) == pickerPerRow {
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

// pickedDone closes a picker whose last value was pressed and added:
// its message becomes "✓ Trail Runner — 42 / Navy" without buttons (the
// cart follows as usual). It does nothing for other presses.
func (r *reply) pickedDone(ctx context.Context, cv *view.CartView) {
	pr := r.pressed
	if pr == nil || !pr.picker || pr.action.Kind != view.ActAdd || pr.messageID == 0 {
		return
	}
	for _, l := range cv.Lines {
		if l.SKU != pr.action.SKU || l.Variant == "" {
			continue
		}
		html := "✓ <b>" + esc(truncateVisible(l.Title, 200)) + "</b> — " + esc(truncateVisible(l.Variant, 200))
		r.check(ctx, r.a.editMessage(ctx, r.chat.ID, pr.messageID, pr.photo, html, nil))
		return
	}
}

// pickerMessage reports whether a pressed message looks like a picker:
// it has buttons, and each one narrows a picker or adds one unit (a
// product card also has Details; a cart has − and +).
func pickerMessage(m *models.Message) bool {
	if m == nil || m.ReplyMarkup == nil || len(m.ReplyMarkup.InlineKeyboard) == 0 {
		return false
	}
	for _, row := range m.ReplyMarkup.InlineKeyboard {
		for _, b := range row {
			act, err := view.ParseAction(b.CallbackData)
			if err != nil || act.Kind != view.ActOption && (act.Kind != view.ActAdd || act.Qty != 1) {
				return false
			}
		}
	}
	return true
}

// editMessage replaces a message's text, or its caption when it is a
// photo, and its keyboard (nil removes it); "not modified" counts as
// success.
func (a *Adapter) editMessage(ctx context.Context, chat int64, id int, photo bool, html string, markup models.ReplyMarkup) error {
	if !photo {
		return a.edit(ctx, chat, id, html, markup)
	}
	err := a.call(ctx, chat, "editMessageCaption", false, func(ctx context.Context) error {
		_, err := a.bot.EditMessageCaption(ctx, &bot.EditMessageCaptionParams{
			ChatID: chat, MessageID: id, Caption: html, ParseMode: models.ParseModeHTML, ReplyMarkup: markup,
		})
		return err
	})
	if err != nil && strings.Contains(err.Error(), "message is not modified") {
		return nil
	}
	return err
}
