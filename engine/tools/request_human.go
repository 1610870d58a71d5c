package tools

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"shopbot/catalog/search/analysis"
	"shopbot/engine/session"
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

type requestHumanArgs struct {
	Reason string `json:"reason"`
}

func requestHumanTool(d *Deps) toolkit.Tool {
	reason := str("why, in a sentence", 500)
	reason["minLength"] = 3
	return toolkit.Tool{
		Name:        "request_human",
		Description: "Hand the chat to the shop's team: the shopper asks for a person, or the tools cannot help.",
		Schema:      object(map[string]any{"reason": reason}, "reason"),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a requestHumanArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			text := analysis.CleanText(a.Reason)
			if len([]rune(text)) < 3 {
				return toolkit.Result{}, toolkit.Errorf("reason must be at least 3 characters")
			}
			if s.Conversation == nil {
				return toolkit.Result{}, errors.New("engine: request_human: session has no conversation")
			}
			key := s.Effects().EffectKey("handoff", text)
			_, err := d.apply(ctx, s, key, func(ctx context.Context, w toolkit.Writes) (*view.Notice, error) {
				if err := w.RequestHuman(ctx, s.Conversation.ID, text); err != nil {
					return nil, err
				}
				return &view.Notice{
					Kind: view.NoticeHandoff, Where: s.Conversation.Key(), ConversationID: s.Conversation.ID,
					Customer: s.Customer.DisplayName, Text: text,
				}, nil
			})
			if err != nil {
				return toolkit.Result{}, err
			}
			s.Conversation.NeedsHuman, s.Conversation.NeedsHumanReason = true, text
			now := s.Now
			if now.IsZero() {
				now = d.now()
			}
			if away, back, ok := d.teamAway(ctx, s.Lang(), now); ok {
				// Outside business hours: the shopper is told when.
				return toolkit.Result{Data: map[string]string{
					"status": "requested", "message": away, "team_back_at": back.Format(time.RFC3339),
				}}, nil
			}
			return toolkit.Result{Data: map[string]string{
				"status":  "requested",
				"message": "A team member has been notified and will reply in this chat.",
			}}, nil
		},
	}
}
