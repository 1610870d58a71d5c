package admin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/team"
	"shopbot/engine/view"
)

// transcriptPage is /admin/conversations/{id}.
type transcriptPage struct {
	Conv     *catalog.Conversation
	Customer *catalog.Customer
	Entries  []entry
	Omitted  int
	Tokens   int
	Cost     string
	Latency  int
	Team     *teamPanel // the team's workflow (page_conversation_team.go)
	// The conversation view (transcript_bubbles.go) and the shopper
	// beside it (transcript_customer.go).
	Bubbles []bubble
	Shopper *customerPanel
	Copilot *copilotPanel // copilot.go; nil unless taken over
}

// entry is a message of the transcript with its tool calls and their
// results paired.
type entry struct {
	catalog.Message
	Calls []callView
	Cost  string
}

type callView struct {
	Name      string
	Arguments string // indented JSON
	Result    string
	IsError   bool
	LatencyMS int
	Answered  bool
}

// maxTranscript bounds the messages shown at once (the newest).
const maxTranscript = 1000

func (s *Server) transcript(w http.ResponseWriter, r *http.Request) {
	conv, err := conversationByID(r.Context(), s.db, r.PathValue("id"))
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p := transcriptPage{Conv: conv}
	if conv.CustomerID != nil {
		if p.Customer, err = catalog.GetCustomer(r.Context(), s.db, *conv.CustomerID); err != nil && !errors.Is(err, catalog.ErrNotFound) {
			s.renderError(w, r, err)
			return
		}
	}
	msgs, err := catalog.RecentMessages(r.Context(), s.db, conv.ID, maxTranscript+1)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if len(msgs) > maxTranscript {
		p.Omitted, msgs = 1, msgs[1:]
	}
	p.Entries, p.Tokens, p.Latency, p.Cost = pairTools(msgs)
	if p.Team, err = s.teamPanel(r.Context(), conv.ID); err != nil {
		s.renderError(w, r, err)
		return
	}
	p.Bubbles = bubbles(p.Entries, p.Team.Workflow.Notes)
	if err := withPhotos(r.Context(), s.db, p.Bubbles); err != nil {
		s.renderError(w, r, err)
		return
	}
	if p.Customer != nil {
		if p.Shopper, err = s.customerPanel(r.Context(), p.Customer, conv); err != nil {
			s.renderError(w, r, err)
			return
		}
	}
	if conv.Paused {
		p.Copilot = s.copilotPanel(r, conv)
	}
	// Seen: the inbox no longer shows it as unread.
	seen := s.cfg.Now().UTC()
	if seen.Before(conv.LastMessageAt) {
		seen = conv.LastMessageAt
	}
	_ = team.MarkConversationRead(r.Context(), s.db, conv.ID, seen)
	s.render(w, r, http.StatusOK, "transcript", "Conversation", "conversations", p)
}

func conversationByID(ctx context.Context, db bun.IDB, raw string) (*catalog.Conversation, error) {
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		return nil, notFound("Conversation")
	}
	c, err := catalog.GetConversation(ctx, db, id)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, notFound("Conversation")
	}
	return c, err
}

// pairTools attaches each tool result to the call that asked for it.
func pairTools(msgs []catalog.Message) (out []entry, tokens, latency int, cost string) {
	results := map[string]catalog.Message{}
	for _, m := range msgs {
		if m.Role == catalog.RoleTool && m.ToolCallID != "" {
			results[m.ToolCallID] = m
		}
	}
	used := map[string]bool{}
	var dollars float64
	priced := false
	for _, m := range msgs {
		tokens += m.PromptTokens + m.CompletionTokens
		if m.Role == catalog.RoleAssistant && m.Model != "" {
			latency += m.LatencyMS
		}
		if m.Role == catalog.RoleTool && used[m.ToolCallID] {
			continue
		}
		e := entry{Message: m}
		if c, ok := messageCost(m); ok {
			e.Cost, dollars, priced = fmt.Sprintf("$%.5f", c), dollars+c, true
		}
		for _, tc := range m.ToolCalls {
			cv := callView{Name: tc.Name, Arguments: indentJSON(tc.Arguments)}
			if res, ok := results[tc.ID]; ok {
				cv.Result, cv.IsError, cv.LatencyMS, cv.Answered = indentJSON(res.Content), res.ToolError, res.LatencyMS, true
				used[tc.ID] = true
			}
			e.Calls = append(e.Calls, cv)
		}
		out = append(out, e)
	}
	cost = "—"
	if priced {
		cost = fmt.Sprintf("$%.4f", dollars)
	}
	return out, tokens, latency, cost
}

func indentJSON(s string) string {
	var buf bytes.Buffer
	if json.Indent(&buf, []byte(s), "", "  ") == nil {
		return buf.String()
	}
	return s
}

// modelPrices are US dollars per million prompt and completion tokens of
// well-known models, for the transcript's cost estimate.
var modelPrices = map[string][2]float64{
	"gpt-4o-mini":  {0.15, 0.60},
	"gpt-4o":       {2.50, 10.00},
	"gpt-4.1":      {2.00, 8.00},
	"gpt-4.1-mini": {0.40, 1.60},
	"gpt-4.1-nano": {0.10, 0.40},
	"gpt-5":        {1.25, 10.00},
	"gpt-5-mini":   {0.25, 2.00},
	"gpt-5-nano":   {0.05, 0.40},
}

// messageCost estimates a model call's cost; ok is false for models
// without a known price (local models, the offline planner).
func messageCost(m catalog.Message) (float64, bool) {
	if m.PromptTokens+m.CompletionTokens == 0 {
		return 0, false
	}
	name := m.Model
	for {
		if p, ok := modelPrices[name]; ok {
			return (float64(m.PromptTokens)*p[0] + float64(m.CompletionTokens)*p[1]) / 1e6, true
		}
		// "gpt-4o-mini-2024-07-18" is priced as "gpt-4o-mini".
		i := strings.LastIndexByte(name, '-')
		if i <= 0 {
			return 0, false
		}
		name = name[:i]
	}
}

// pause hands the conversation to the merchant: the bot stays silent.
func (s *Server) pause(w http.ResponseWriter, r *http.Request) {
	s.setPaused(w, r, true, "You took the conversation over: the bot stays silent until you hand it back.")
}

// resume hands the conversation back to the bot and clears the
// needs-human flag.
func (s *Server) resume(w http.ResponseWriter, r *http.Request) {
	s.setPaused(w, r, false, "The bot answers this conversation again.")
}

func (s *Server) setPaused(w http.ResponseWriter, r *http.Request, paused bool, msg string) {
	conv, err := conversationByID(r.Context(), s.db, r.PathValue("id"))
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if paused {
		err = catalog.SetPaused(r.Context(), s.db, conv.ID, true)
		if err == nil && !conv.Paused {
			s.noteSummary(r.Context(), conv.ID)
		}
	} else {
		err = team.HandBack(r.Context(), s.db, conv.ID)
	}
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "conversation takeover", "conversation_id", conv.ID, "paused", paused, "user", sessionFrom(r.Context()).Username)
	redirect(w, r, fmt.Sprintf("/admin/conversations/%d", conv.ID), msg)
}

// maxReply bounds a merchant's reply.
const maxReply = 4000

// reply sends a merchant's message into the shopper's chat: it is stored
// in the transcript (role merchant), the bot is paused if it was not, and
// the channel's adapter delivers it.
func (s *Server) reply(w http.ResponseWriter, r *http.Request) {
	conv, err := conversationByID(r.Context(), s.db, r.PathValue("id"))
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	text := strings.TrimSpace(r.FormValue("text"))
	if text == "" || len(text) > maxReply {
		s.renderError(w, r, badRequest("A reply must be 1 to %d characters.", maxReply))
		return
	}
	if text, err = s.expandCanned(r.Context(), conv, text); err != nil {
		s.renderError(w, r, err)
		return
	}
	if !conv.Paused { // a reply takes the conversation over
		s.noteSummary(r.Context(), conv.ID)
	}
	sess := sessionFrom(r.Context())
	if err := team.AddMerchantReply(r.Context(), s.db, conv.ID, sess.Username, text); err != nil {
		s.renderError(w, r, err)
		return
	}
	msg := "Reply sent; the bot stays silent here until you hand it back."
	if err := s.notifyReply(r.Context(), conv, text); err != nil {
		msg = "Reply saved, but not delivered: " + s.told(r.Context(), fmt.Sprintf("reply in conversation %d", conv.ID), conv.Channel, err, "they did not get your reply")
	}
	redirect(w, r, fmt.Sprintf("/admin/conversations/%d", conv.ID), msg)
}

func (s *Server) notifyReply(ctx context.Context, conv *catalog.Conversation, text string) error {
	if s.cfg.Notifier == nil {
		return errNoNotifier
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), noticeTimeout)
	defer cancel()
	n := view.Notice{Kind: view.NoticeMerchantReply, Where: conv.Key(), ConversationID: conv.ID, Text: text}
	if conv.CustomerID != nil {
		if c, err := catalog.GetCustomer(ctx, s.db, *conv.CustomerID); err == nil {
			n.Customer = c.DisplayName
		}
	}
	return s.cfg.Notifier.Notify(ctx, n)
}
