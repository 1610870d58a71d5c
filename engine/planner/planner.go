package planner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"shopbot/engine/toolkit"
	"strconv"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/planner/aftersale"
	"shopbot/engine/planner/intent"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

// Planner answers without a model: it parses the message into an Intent
// (package intent), runs the tools that serve it through the Toolbox,
// exactly as the model's calls are run, and words the reply from their
// results (text.go). It is deterministic: no model, no randomness,
// no clock but the session's.
type Planner struct {
	tb    *toolkit.Toolbox
	vocab OptionVocab // nil: option words are not read (variants.go)
}

// New returns a planner over the engine's tools.
func New(tb *toolkit.Toolbox) *Planner { return &Planner{tb: tb} }

// Plan is the planner's answer to one message. Buttons are the turn's
// quick replies in the shopper's language; adapters should show them rather
// than the Results' own buttons, which tools label in English for the model.
type Plan struct {
	Text    string           // the reply, in the shopper's language
	Calls   []PlannedCall    // tools run, in order, for the transcript
	Results []toolkit.Result // their results (cards, cart, order) for the adapter
	Buttons []view.Button    // quick replies, labelled in the shopper's language
}

// PlannedCall is one tool call of a plan, as the transcript records it.
type PlannedCall struct {
	ID, Name, Args, Content string // Content/IsErr from toolMessage(res, err)
	IsErr                   bool
}

// Answer handles one message. Problems the shopper can fix (an unknown
// product, not enough stock, a bad phone number) are answered politely; an
// internal failure is returned as an error, with the calls made so far in
// the plan for the transcript.
func (p *Planner) Answer(ctx context.Context, s *session.Session, text string) (Plan, error) {
	if s.State == nil {
		s.State = &session.State{}
	}
	in, err := p.readOptions(ctx, s, text, intent.Parse(text, s.Locale, s.State))
	if err != nil {
		return Plan{}, err
	}
	s.State.Pending = "" // a question about a write is answered in the next message or not at all
	t := &plannerTurn{p: p, s: s, lang: in.Lang, opts: in.Options, optionsOnly: in.Topic == topicOptionsOnly}
	handle, ok := intentHandlers[in.Kind]
	if !ok {
		handle = (*plannerTurn).help
	}
	err = handle(t, ctx, in)
	return t.plan, errors.Join(err, t.err)
}

// plannerTurn is one Answer in progress.
type plannerTurn struct {
	p    *Planner
	s    *session.Session
	lang string
	plan Plan
	err  error             // a reply that could not be rendered
	opts map[string]string // the variant options named (variants.go)
	// optionsOnly: the message named only options, so a product without
	// any is not added as it is.
	optionsOnly bool
	// fromList: the add refers to a card of the last list ("the first
	// one", or its name), so that list's option filter, if any ("running
	// shoes in size 42"), chose the variant.
	fromList bool
}

var intentHandlers = map[intent.Kind]func(*plannerTurn, context.Context, intent.Intent) error{
	intent.IntentSearch:       (*plannerTurn).search,
	intent.IntentAdd:          (*plannerTurn).add,
	intent.IntentAddByName:    (*plannerTurn).addByName,
	intent.IntentRemove:       (*plannerTurn).remove,
	intent.IntentSetQty:       (*plannerTurn).setQty,
	intent.IntentClearCart:    (*plannerTurn).clearCart,
	intent.IntentCart:         (*plannerTurn).cart,
	intent.IntentCheckout:     (*plannerTurn).checkout,
	intent.IntentField:        (*plannerTurn).field,
	intent.IntentConfirm:      (*plannerTurn).confirm,
	intent.IntentCancel:       (*plannerTurn).cancel,
	intent.IntentCategories:   (*plannerTurn).categories,
	intent.IntentPopular:      (*plannerTurn).popular,
	intent.IntentDetails:      (*plannerTurn).details,
	intent.IntentAboutIt:      (*plannerTurn).aboutIt,
	intent.IntentSimilar:      (*plannerTurn).similar,
	intent.IntentCompare:      (*plannerTurn).compare,
	intent.IntentAvailability: (*plannerTurn).availability,
	intent.IntentReviews:      (*plannerTurn).reviews,
	intent.IntentShoppingList: (*plannerTurn).shoppingList,
	intent.IntentStats:        (*plannerTurn).stats,
	intent.IntentHuman:        (*plannerTurn).human,
	intent.IntentHelp:         (*plannerTurn).help,
	intent.IntentGreeting:     (*plannerTurn).greeting,
	intent.IntentThanks:       (*plannerTurn).thanks,
	intent.IntentRefuse:       (*plannerTurn).refuse,
	intent.IntentMore:         (*plannerTurn).more,
	intent.IntentPersonal:     (*plannerTurn).personal,
	intent.IntentInfo:         (*plannerTurn).info,       // info.go
	intent.IntentPromo:        (*plannerTurn).promo,      // promo.go
	intent.IntentNotifyBack:   (*plannerTurn).notifyBack, // restock.go

	// package aftersale (aftersale.go)
	intent.IntentOrders:        afterSale(aftersale.Status),
	intent.IntentCancelOrder:   afterSale(aftersale.Cancel),
	intent.IntentChangeAddress: afterSale(aftersale.ChangeAddress),
	intent.IntentChangeItems:   afterSale(aftersale.ChangeItems),
	intent.IntentReturn:        afterSale(aftersale.Return),

	// delivery.go
	intent.IntentDeliveryQuote:  (*plannerTurn).deliveryQuote,
	intent.IntentDeliveryChoice: (*plannerTurn).deliveryChoice,
}

// ---- plumbing ----

// call runs a tool through the Toolbox and records it. args is a struct or
// map of plain values, so it always marshals.
func (t *plannerTurn) call(ctx context.Context, name string, args any) (toolkit.Result, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return toolkit.Result{}, fmt.Errorf("engine: planner: %s arguments: %w", name, err)
	}
	res, err := t.p.tb.Call(ctx, t.s, name, string(raw))
	content, isErr := toolkit.ModelMessage(res, err)
	t.plan.Calls = append(t.plan.Calls, PlannedCall{
		ID: t.callID(), Name: name, Args: string(raw), Content: content, IsErr: isErr,
	})
	if err == nil {
		t.plan.Results = append(t.plan.Results, res)
	}
	return res, err
}

// callID names the next call, unique within the conversation when the
// turn's dedup key is short enough to include.
func (t *plannerTurn) callID() string {
	n := strconv.Itoa(len(t.plan.Calls) + 1)
	if k := t.s.DedupKey; k != "" && len(k) <= 40 {
		return "planner-" + k + "-" + n
	}
	return "planner-" + n
}

// fail answers a tool error: one the shopper can act on is shown (as the
// tool worded it, the way the model would read it); anything else fails
// the turn.
func (t *plannerTurn) fail(err error) error {
	if !toolkit.IsUserError(err) {
		return fmt.Errorf("engine: planner: %w", err)
	}
	var te *toolkit.ToolError
	msg := strings.ReplaceAll(err.Error(), "catalog: ", "")
	if errors.As(err, &te) {
		msg = te.Msg
	}
	if strings.HasPrefix(msg, "arguments") { // a schema violation: nothing to show the shopper
		t.say(rCantDo, nil)
		return nil
	}
	t.say(rToolError, msg)
	return nil
}

// say appends a rendered reply to the plan's text.
func (t *plannerTurn) say(key replyKey, data any) {
	text, err := renderReply(t.lang, key, data)
	if err != nil {
		t.err = errors.Join(t.err, err)
		return
	}
	if key == rNothing || key == rNoMatch {
		t.toldNothing()
	}
	if t.plan.Text != "" {
		t.plan.Text += "\n\n"
	}
	t.plan.Text += text
}

// toldNothing marks the turn's searches as having found nothing: the
// shopper is told nothing matches, even where a search returned products
// the planner then ruled out (none has every word, none is in stock). The
// dashboard's "searches that found nothing" reads the mark. (The probes
// of single words in unknownWords are not recorded, so not marked.)
func (t *plannerTurn) toldNothing() {
	for i, c := range t.plan.Calls {
		if c.Name == catalog.SearchToolName && !c.IsErr {
			t.plan.Calls[i].Content = toolkit.FoundNothing(c.Content)
		}
	}
}

// button adds a quick reply labelled from the reply table.
func (t *plannerTurn) button(key replyKey, a view.Action) {
	t.plan.Buttons = append(t.plan.Buttons, view.NewButton(replyLabel(t.lang, key), a))
}

func (t *plannerTurn) shopButtons() {
	t.button("btn.cats", view.Action{Kind: view.ActCategories})
	t.button("btn.cart", view.Action{Kind: view.ActCart})
	t.button("btn.orders", view.Action{Kind: view.ActOrders})
}

// dataAs reads a tool's Data through its JSON form: the JSON is the
// contract the model reads, so the planner reads the same.
func dataAs[T any](res toolkit.Result) T {
	var v T
	if b, err := json.Marshal(res.Data); err == nil {
		_ = json.Unmarshal(b, &v) // a shape mismatch leaves zero values
	}
	return v
}

// resolve turns a reference into a SKU of State.Shown or State.Focus; when
// it cannot, the shopper is told why and ok is false.
func (t *plannerTurn) resolve(r intent.Ref) (sku string, ok bool) {
	st := t.s.State
	if r.Focus {
		switch {
		case st.Focus != "":
			return st.Focus, true
		case len(st.Shown) == 1:
			return st.Shown[0], true
		case len(st.Shown) == 0:
			t.say(rNoShown, nil)
		default:
			t.say(rWhich, nil)
		}
		return "", false
	}
	if len(st.Shown) == 0 {
		t.say(rNoShown, nil)
		return "", false
	}
	i := r.Pos - 1
	if r.Pos == -1 {
		i = len(st.Shown) - 1
	}
	if i < 0 || i >= len(st.Shown) {
		t.say(rOutOfRange, struct{ N, Pos int }{len(st.Shown), r.Pos})
		return "", false
	}
	st.Focus = st.Shown[i]
	return st.Focus, true
}

func firstRef(in intent.Intent) intent.Ref {
	if len(in.Refs) == 0 {
		return intent.Ref{Focus: true}
	}
	return in.Refs[0]
}
