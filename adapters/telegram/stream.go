package telegram

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

// streamer shows an answer while the model writes it: as a draft
// (sendMessageDraft) in private chats, else — or when the server has no
// drafts — as a message edited at most once per StreamEvery.
type streamer struct {
	r       *reply
	draftID int
	msgID   int // the message being edited, in edit mode
	last    time.Time
	shown   string
}

func (s *streamer) update(ctx context.Context, now time.Time) {
	if now.Sub(s.last) < s.r.a.cfg.StreamEvery {
		return
	}
	parts := splitMessage(s.r.seg.String(), maxText)
	if len(parts) == 0 || parts[0] == s.shown {
		return
	}
	s.last = now
	if s.msgID == 0 && s.r.chat.Type == models.ChatTypePrivate && !s.r.a.noDrafts.Load() {
		if s.draft(ctx, parts[len(parts)-1]) {
			return
		}
	}
	s.shown = parts[0]
	if s.msgID == 0 {
		id, err := s.r.send(ctx, parts[0], nil)
		if !s.r.check(ctx, err) && err == nil {
			s.msgID = id
		}
		return
	}
	s.r.check(ctx, s.r.a.edit(ctx, s.r.chat.ID, s.msgID, parts[0], nil))
}

// draft sends a draft; false means drafts are unavailable here.
func (s *streamer) draft(ctx context.Context, html string) bool {
	a := s.r.a
	err := a.call(ctx, s.r.chat.ID, "sendMessageDraft", false, func(ctx context.Context) error {
		_, err := a.bot.SendMessageDraft(ctx, &bot.SendMessageDraftParams{
			ChatID: s.r.chat.ID, DraftID: strconv.Itoa(s.draftID), Text: html, ParseMode: models.ParseModeHTML,
		})
		return err
	})
	switch {
	case err == nil:
		return true
	case errors.Is(err, bot.ErrorNotFound):
		if !a.noDrafts.Swap(true) {
			a.log.InfoContext(ctx, "telegram server has no sendMessageDraft; streaming by editing messages")
		}
		return false
	default:
		s.r.check(ctx, err)
		return true // a failed draft is skipped; the final message follows
	}
}

// finish shows the final text. It returns false when nothing was sent as
// a message yet (drafts only), so the caller sends the parts itself.
func (s *streamer) finish(ctx context.Context, parts []string, kb models.ReplyMarkup) bool {
	if s.msgID == 0 {
		return false
	}
	var first models.ReplyMarkup
	if len(parts) == 1 {
		first = kb
	}
	if s.r.check(ctx, s.r.a.edit(ctx, s.r.chat.ID, s.msgID, parts[0], first)) {
		return true
	}
	for i, p := range parts[1:] {
		var markup models.ReplyMarkup
		if i == len(parts)-2 {
			markup = kb
		}
		if _, err := s.r.send(ctx, p, markup); s.r.check(ctx, err) {
			return true
		}
	}
	return true
}
