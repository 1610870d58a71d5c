package engine

import (
	"context"
	"errors"

	"shopbot/catalog"
	"shopbot/catalog/team"
	"shopbot/engine/locale"
	"shopbot/engine/session"
)

// rate answers a CSAT button (view.ActRate), sent with the prompt the
// panel's resolution triggers (view.NoticeCSAT): the rating is stored on
// the conversation once (team.RateConversation; the first answer
// stays, a second tap changes nothing) and the shopper is thanked. It
// writes no message: a tap is no shopper's message, so it neither
// reopens the resolved conversation nor reaches the model's history, and
// it answers while the conversation is taken over too.
func (e *Engine) rate(ctx context.Context, s *session.Session, sink Sink) error {
	key := "csat.thanks"
	err := errors.New("engine: no database to store a rating")
	if e.cfg.DB != nil {
		err = team.RateConversation(ctx, e.cfg.DB, s.Conversation.ID, s.Action.Qty, s.Now)
	}
	switch {
	case err == nil:
	case errors.Is(err, catalog.ErrConflict):
		key = "csat.not_asked"
		if cs, gerr := team.GetCSAT(ctx, e.cfg.DB, s.Conversation.ID); gerr == nil && cs.Rating != nil {
			key = "csat.already"
		}
	case errors.Is(err, catalog.ErrInvalid), e.cfg.DB == nil:
		key = "csat.not_asked"
	default:
		return err
	}
	return sendText(ctx, sink, locale.Word(s.Lang(), key))
}
