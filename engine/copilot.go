package engine

import (
	"bytes"
	"context"
	"fmt"

	"shopbot/catalog"
	"shopbot/engine/copilot"
	"shopbot/engine/llm"
	"shopbot/engine/session"
)

// The copilot of the team (the admin panel's taken-over conversations):
// Suggest drafts the reply the assistant would give now, for a staff
// member to edit and send; Summarize says in three lines what happened
// so far. Suggest is a turn of this engine — the same session, history
// window, model or offline planner and tools — run against a toolbox
// whose effects are refused (copilot.Dry): a suggestion adds nothing to
// a cart, places no order, hands nothing over, records nothing and sends
// nothing.

// Suggest drafts the assistant's answer to the shopper's latest message
// of the conversation, as the model (or, without one, the offline
// planner) would give it now with the history before it. Products the
// answer lists are written out as lines (copilot.Draft).
func (e *Engine) Suggest(ctx context.Context, conversationID int64) (copilot.Suggestion, error) {
	e = e.withSettings(ctx)
	conv, err := catalog.GetConversation(ctx, e.cfg.DB, conversationID)
	if err != nil {
		return copilot.Suggestion{}, err
	}
	past, err := catalog.RecentMessages(ctx, e.cfg.DB, conv.ID, e.cfg.HistoryMessages+8)
	if err != nil {
		return copilot.Suggestion{}, err
	}
	last := copilot.LastAsk(past)
	if last < 0 || conv.CustomerID == nil {
		return copilot.Suggestion{}, copilot.ErrNothingToSuggest
	}
	c, err := catalog.GetCustomer(ctx, e.cfg.DB, *conv.CustomerID)
	if err != nil {
		return copilot.Suggestion{}, err
	}
	s := &session.Session{
		Channel: conv.Channel, ChatID: conv.ChatID, ThreadID: conv.ThreadID, Locale: c.Locale,
		Text: past[last].Content, DedupKey: fmt.Sprintf("suggest-%d-%d", conv.ID, past[last].ID),
		Customer: c, Conversation: conv, Scope: catalog.PersonalCart(c.ID),
		State: session.LoadState(conv.State), Currency: e.cfg.Currency, Now: e.cfg.Now(),
	}
	s.Journal = session.NewJournal(s, nil)
	s.State.Lang = s.Lang()
	dry := *e
	dry.tools, dry.planner = e.dry.Tools, e.dry.Planner
	dry.history = newHistoryCache(1)
	dry.history.put(conv.ID, conv.LastMessageAt, past[:last], nil, e.cfg.HistoryMessages)
	var draft copilot.Draft
	rec := &recorder{}
	if _, err := dry.respond(ctx, s, draftSink(&draft), rec); err != nil {
		return copilot.Suggestion{}, err
	}
	sg := copilot.Suggestion{Text: draft.Text(), By: PlannerModel}
	for _, m := range rec.msgs {
		if m.Role == catalog.RoleAssistant && m.Model != "" {
			sg.By = m.Model
		}
	}
	if sg.Text == "" {
		return copilot.Suggestion{}, fmt.Errorf("engine: suggest for conversation %d: the answer is empty", conv.ID)
	}
	return sg, nil
}

// draftSink is a suggestion's sink: the final text and the products
// shown go to the draft.
func draftSink(d *copilot.Draft) Sink {
	return SinkFunc(func(_ context.Context, ev Event) error {
		switch ev.Kind {
		case EventDone:
			d.Done(ev.Text)
		case EventCards:
			d.Cards(ev.Cards)
		}
		return nil
	})
}

// Summarize says what happened in the conversation so far in three lines:
// what the shopper asked for, what was shown or added to their cart, and
// where their order stands. The model writes them when one is configured
// (and answers); otherwise they are put together from the transcript,
// the cart and the orders (copilot.OfflineSummary).
func (e *Engine) Summarize(ctx context.Context, conversationID int64) ([]string, error) {
	e = e.withSettings(ctx)
	conv, err := catalog.GetConversation(ctx, e.cfg.DB, conversationID)
	if err != nil {
		return nil, err
	}
	msgs, err := catalog.RecentMessages(ctx, e.cfg.DB, conv.ID, 200)
	if err != nil {
		return nil, err
	}
	if e.cfg.Model != nil {
		if lines, err := e.modelSummary(ctx, msgs); err == nil {
			return lines, nil
		} else if ctx.Err() != nil {
			return nil, err
		} else {
			e.log.WarnContext(ctx, "copilot summary: the model failed, summarized offline", "err", err)
		}
	}
	return copilot.OfflineSummary(ctx, e.cfg.DB, conv, msgs)
}

// modelSummary asks the model for the three lines.
func (e *Engine) modelSummary(ctx context.Context, msgs []catalog.Message) ([]string, error) {
	var sys bytes.Buffer
	if err := prompts.ExecuteTemplate(&sys, "summary", struct{ ShopName string }{e.cfg.ShopName}); err != nil {
		return nil, err
	}
	resp, err := e.callModel(ctx, llm.ChatRequest{Messages: []llm.ChatMessage{
		{Role: catalog.RoleSystem, Content: sys.String()},
		{Role: catalog.RoleUser, Content: copilot.Transcript(msgs)},
	}}, SinkFunc(func(context.Context, Event) error { return nil }))
	if err != nil {
		return nil, err
	}
	return copilot.SummaryLines(resp.Text)
}
