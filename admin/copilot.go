package admin

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"shopbot/catalog"
	"shopbot/engine"
	"shopbot/engine/copilot"
)

// Copilot helps the team on a conversation they took over (the engine's
// Suggest and Summarize, wired by bot/): a reply drafted by the
// assistant — the model when configured, the offline planner otherwise —
// that the staff member edits and sends, and three lines on what
// happened so far.
type Copilot interface {
	Suggest(ctx context.Context, conversationID int64) (copilot.Suggestion, error)
	Summarize(ctx context.Context, conversationID int64) ([]string, error)
}

// copilotPanel is the copilot's part of a taken-over conversation's page.
type copilotPanel struct {
	Asked      bool   // the page was asked for a suggestion (?suggest=1)
	Suggestion string // the draft, in the reply box
	By         string // who drafted it: a model's name or the offline planner
	Problem    string // why there is no draft
}

// copilotTimeout bounds a suggestion or a summary: the page waits for it.
const copilotTimeout = 20 * time.Second

// copilotPanel drafts a reply when the page asks for one (the "Suggest a
// reply" link); nil without a copilot.
func (s *Server) copilotPanel(r *http.Request, conv *catalog.Conversation) *copilotPanel {
	if s.cfg.Copilot == nil {
		return nil
	}
	p := &copilotPanel{Asked: r.URL.Query().Get("suggest") == "1"}
	if !p.Asked {
		return p
	}
	ctx, cancel := context.WithTimeout(r.Context(), copilotTimeout)
	defer cancel()
	sg, err := s.cfg.Copilot.Suggest(ctx, conv.ID)
	switch {
	case errors.Is(err, copilot.ErrNothingToSuggest):
		p.Problem = "The shopper has not written anything to answer yet."
	case err != nil:
		s.log.WarnContext(ctx, "copilot: suggest", "conversation_id", conv.ID, "err", err)
		p.Problem = "No suggestion this time: the assistant could not answer. Try again, or write your own reply."
	default:
		p.Suggestion, p.By = sg.Text, sg.By
		if p.By == engine.PlannerModel {
			p.By = "the offline assistant"
		}
	}
	return p
}

// copilotAuthor signs the summary note.
const copilotAuthor = "copilot"

// noteSummary writes the three-line summary of the conversation so far
// as a private note, when a staff member takes it over: every member who
// opens it later reads it there. A failure costs only the note.
func (s *Server) noteSummary(ctx context.Context, convID int64) {
	if s.cfg.Copilot == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), copilotTimeout)
	defer cancel()
	lines, err := s.cfg.Copilot.Summarize(ctx, convID)
	if err == nil {
		n := &catalog.ConversationNote{ConversationID: convID, Author: copilotAuthor, Body: "Summary so far:\n" + strings.Join(lines, "\n"), CreatedAt: s.cfg.Now()}
		err = catalog.AddConversationNote(ctx, s.db, n)
	}
	if err != nil {
		s.log.WarnContext(ctx, "copilot: summary", "conversation_id", convID, "err", err)
	}
}
