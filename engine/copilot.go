package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"shopbot/catalog"
	"shopbot/engine/llm"
	"shopbot/engine/planner"
	"shopbot/engine/session"
	"shopbot/engine/toolkit"
	"shopbot/engine/tools"
)

// The copilot of the team (the admin panel's taken-over conversations):
// Suggest drafts the reply the assistant would give now, for a staff
// member to edit and send; Summarize says in three lines what happened
// so far. Suggest is a turn of this engine — the same session, history
// window, model or offline planner and tools — run against a toolbox
// whose effects are refused: a suggestion adds nothing to a cart, places
// no order, hands nothing over, records nothing and sends nothing.

// ErrNothingToSuggest is a conversation without a shopper's message to
// answer, or without a shopper.
var ErrNothingToSuggest = errors.New("engine: nothing to suggest: the shopper has not written yet")

// errSuggestionOnly refuses an effect during a suggestion.
var errSuggestionOnly = errors.New("engine: a suggested reply changes nothing")

// Suggestion is a drafted reply.
type Suggestion struct {
	Text string
	By   string // the model's name, or PlannerModel
}

// dryTools are the tools and planner suggestions run with: the engine's
// tools over the same reads, every write refused.
type dryTools struct {
	tools   *toolkit.Toolbox
	planner *planner.Planner
}

// noWrites is the write store of suggestions: each effect is refused.
type noWrites struct{}

func (noWrites) BeginEffect(context.Context) (toolkit.EffectTx, error) { return nil, errSuggestionOnly }

func (noWrites) TakeEffectNotice(context.Context, string, string, time.Time) (string, error) {
	return "", nil
}

func newDryTools(deps *tools.Deps, vocab planner.OptionVocab) (*dryTools, error) {
	d := *deps
	d.Writes, d.Notify = noWrites{}, nil
	tb, err := toolkit.NewToolbox(tools.Tools(&d)...)
	if err != nil {
		return nil, err
	}
	return &dryTools{tools: tb, planner: planner.New(tb).WithOptionVocab(vocab)}, nil
}

// Suggest drafts the assistant's answer to the shopper's latest message
// of the conversation, as the model (or, without one, the offline
// planner) would give it now with the history before it. Products the
// answer lists are written out as lines ("Title — price"), since the
// staff member sends text.
func (e *Engine) Suggest(ctx context.Context, conversationID int64) (Suggestion, error) {
	e = e.withSettings(ctx)
	conv, err := catalog.GetConversation(ctx, e.cfg.DB, conversationID)
	if err != nil {
		return Suggestion{}, err
	}
	past, err := catalog.RecentMessages(ctx, e.cfg.DB, conv.ID, e.cfg.HistoryMessages+8)
	if err != nil {
		return Suggestion{}, err
	}
	last := -1
	for i, m := range past {
		if m.Role == catalog.RoleUser && strings.TrimSpace(m.Content) != "" && !strings.HasPrefix(m.Content, "[button] ") {
			last = i
		}
	}
	if last < 0 || conv.CustomerID == nil {
		return Suggestion{}, ErrNothingToSuggest
	}
	c, err := catalog.GetCustomer(ctx, e.cfg.DB, *conv.CustomerID)
	if err != nil {
		return Suggestion{}, err
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
	dry.tools, dry.planner = e.dry.tools, e.dry.planner
	dry.history = newHistoryCache(1)
	dry.history.put(conv.ID, conv.LastMessageAt, past[:last], nil, e.cfg.HistoryMessages)
	var out collected
	rec := &recorder{}
	if _, err := dry.respond(ctx, s, SinkFunc(out.send), rec); err != nil {
		return Suggestion{}, err
	}
	sg := Suggestion{Text: out.text(), By: PlannerModel}
	for _, m := range rec.msgs {
		if m.Role == catalog.RoleAssistant && m.Model != "" {
			sg.By = m.Model
		}
	}
	if sg.Text == "" {
		return Suggestion{}, fmt.Errorf("engine: suggest for conversation %d: the answer is empty", conv.ID)
	}
	return sg, nil
}

// collected is a suggestion's sink: the final text and the products
// shown.
type collected struct {
	done  string
	cards []string
}

func (c *collected) send(_ context.Context, ev Event) error {
	switch ev.Kind {
	case EventDone:
		c.done = ev.Text
	case EventCards:
		for _, card := range ev.Cards {
			c.cards = append(c.cards, card.Title+" — "+card.PriceText)
		}
	}
	return nil
}

func (c *collected) text() string {
	t := strings.TrimSpace(c.done)
	if len(c.cards) > 0 {
		t += "\n" + strings.Join(c.cards, "\n")
	}
	return strings.TrimSpace(t)
}

// Summarize says what happened in the conversation so far in three lines:
// what the shopper asked for, what was shown or added to their cart, and
// where their order stands. The model writes them when one is configured
// (and answers); otherwise they are put together from the transcript,
// the cart and the orders.
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
	return offlineSummary(ctx, e.cfg.DB, conv, msgs)
}

// modelSummary asks the model for the three lines.
func (e *Engine) modelSummary(ctx context.Context, msgs []catalog.Message) ([]string, error) {
	var sys bytes.Buffer
	if err := prompts.ExecuteTemplate(&sys, "summary", struct{ ShopName string }{e.cfg.ShopName}); err != nil {
		return nil, err
	}
	var convo strings.Builder
	for _, m := range msgs {
		who := map[catalog.Role]string{catalog.RoleUser: "Shopper", catalog.RoleAssistant: "Assistant", catalog.RoleMerchant: "Staff", catalog.RoleTool: "Tool " + m.ToolName}[m.Role]
		if who == "" || strings.TrimSpace(m.Content) == "" {
			continue
		}
		fmt.Fprintf(&convo, "%s: %s\n", who, clipRunes(m.Content, 600))
	}
	resp, err := e.callModel(ctx, llm.ChatRequest{Messages: []llm.ChatMessage{
		{Role: catalog.RoleSystem, Content: sys.String()},
		{Role: catalog.RoleUser, Content: convo.String()},
	}}, SinkFunc(func(context.Context, Event) error { return nil }))
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, l := range strings.Split(resp.Text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return nil, errors.New("engine: the model's summary is empty")
	}
	if len(lines) > 3 {
		lines = lines[:3]
	}
	return lines, nil
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
