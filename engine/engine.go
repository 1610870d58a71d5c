package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"shopbot/engine/toolkit"
	"shopbot/engine/turnsave"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"shopbot/catalog"
	"shopbot/catalog/chatlock"
	"shopbot/catalog/groupcommit"
	"shopbot/catalog/search"
	"shopbot/engine/copilot"
	"shopbot/engine/llm"
	"shopbot/engine/logctx"
	"shopbot/engine/planner"
	"shopbot/engine/session"
	"shopbot/engine/tools"
	"shopbot/engine/view"
)

// Config is what an Engine needs. Zero values get the documented defaults.
type Config struct {
	DB       *bun.DB
	Search   search.Searcher
	Model    llm.Model // nil: the offline planner answers every turn
	ShopName string    // default "Shopbot Demo Shop"
	Currency string    // default "USD"
	// PromptExtra is appended to the system prompt (merchant settings).
	PromptExtra string
	MaxRounds   int // model calls per turn; default 5
	// MaxToolCalls bounds the tool calls of one model reply that run
	// (default 16); the rest are answered with an error (toolcap.go).
	MaxToolCalls int
	// History bounds what the model sees of earlier turns: at most
	// HistoryMessages messages (default 12) and HistoryTokens estimated
	// tokens (default 4000).
	HistoryMessages int
	HistoryTokens   int
	// RateLimit turns per RateWindow per customer (default 20 per 60 s).
	RateLimit  int
	RateWindow time.Duration
	// DailyTokens is each customer's model token budget per day (default
	// 200,000); past it the offline planner answers.
	DailyTokens int
	// ReturnWindow is how long after delivery a shopper may ask a return
	// (request_return): default 30 days, negative for no limit.
	ReturnWindow time.Duration
	// ChatLocks, when set, also serializes each chat's turns across
	// processes (chatlock.Locks on Postgres); within a process the
	// engine always does.
	ChatLocks ChatLocker
	// Notifier hears of orders placed and handoffs requested, for the
	// merchant; nil drops them.
	Notifier Notifier
	// Settings, when set, is read at the start of turns (at most once a
	// second) for merchant overrides of the fields above (settings.go).
	Settings func(ctx context.Context) (catalog.Settings, error)
	Logger   *slog.Logger
	Registry prometheus.Registerer
	Now      func() time.Time
	// Crash is a fault-injection hook for tests; production leaves it
	// nil. Turns call it at each step where a process could die: inside
	// each effect's transaction ("effect-tx"), after its commit
	// ("effect"), before persisting ("persist") and inside the persist
	// transaction ("persist-tx"). When it returns true the turn stops as
	// if the process had died there: the open transaction rolls back,
	// nothing later in the turn is written or sent, and Handle returns
	// ErrCrashed.
	Crash func(step string) bool
	// Pages searches the shop's pages (search_shop_info); nil: none.
	Pages toolkit.PassageSearcher
	// Tracer makes the OpenTelemetry spans of a turn, its model calls
	// and its tool calls (tracing.go); nil: none.
	Tracer trace.TracerProvider
	// PaymentLink is where the buyer of an order an agent placed pays
	// (agent.go); nil: the order awaits payment the merchant takes.
	PaymentLink func(ctx context.Context, o *view.OrderView) (string, error)
}

func (c *Config) defaults() {
	if c.ShopName == "" {
		c.ShopName = "Shopbot Demo Shop"
	}
	if c.Currency == "" {
		c.Currency = "USD"
	}
	if c.MaxRounds <= 0 {
		c.MaxRounds = 5
	}
	if c.MaxToolCalls <= 0 {
		c.MaxToolCalls = defaultMaxToolCalls
	}
	if c.HistoryMessages <= 0 {
		c.HistoryMessages = 12
	}
	if c.HistoryTokens <= 0 {
		c.HistoryTokens = 4000
	}
	if c.RateLimit <= 0 {
		c.RateLimit = 20
	}
	if c.RateWindow <= 0 {
		c.RateWindow = time.Minute
	}
	if c.DailyTokens <= 0 {
		c.DailyTokens = 200_000
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Registry == nil {
		c.Registry = prometheus.NewRegistry()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.ReturnWindow == 0 {
		c.ReturnWindow = 30 * 24 * time.Hour
	}
	if c.Tracer == nil {
		c.Tracer = noop.NewTracerProvider()
	}
}

// Engine handles turns from every channel.
type Engine struct {
	cfg     Config
	deps    *tools.Deps
	tools   *toolkit.Toolbox
	agent   *toolkit.Toolbox // tools and the agent-only ones (agent.go)
	planner *planner.Planner
	chats   *chatlock.Local
	history *historyCache
	writes  *groupcommit.Tx // the turns' messages and state (SQLite)
	saves   *turnsave.Saver // the same on Postgres, a statement for several turns
	hits    *groupcommit.Tx // rate-limit counts (limits.go)
	metrics *metrics
	log     *slog.Logger
	tracer  trace.Tracer
	live    *liveSettings
	pruner  *effectPruner
	notices *sync.WaitGroup // notices being delivered
	dry     *copilot.Dry    // the copilot's tools, every write refused (copilot.go)
}

// New builds an engine and its tools.
func New(cfg Config) (*Engine, error) {
	cfg.defaults()
	if cfg.DB == nil || cfg.Search == nil {
		return nil, errors.New("engine: DB and Search are required")
	}
	deps := &tools.Deps{DB: cfg.DB, Search: cfg.Search, Currency: cfg.Currency, Now: cfg.Now}
	deps.Passages = cfg.Pages
	deps.ReturnWindow = max(cfg.ReturnWindow, 0)
	deps.PaymentLink = cfg.PaymentLink
	notices := &sync.WaitGroup{}
	if cfg.Notifier != nil {
		deps.Notify = notifyAsync(cfg.Notifier, cfg.Logger, notices)
	}
	tb, err := toolkit.NewToolbox(tools.Tools(deps)...)
	if err != nil {
		return nil, err
	}
	agent, err := toolkit.NewToolbox(append(tools.Tools(deps), tools.AgentOnly(deps)...)...)
	if err != nil {
		return nil, err
	}
	vocab := (&catalog.OptionVocabCache{DB: cfg.DB, TTL: optionVocabTTL}).Get
	dry, err := copilot.NewDry(deps, vocab)
	if err != nil {
		return nil, err
	}
	return &Engine{
		cfg: cfg, deps: deps, tools: tb, agent: agent, dry: dry,
		planner: planner.New(tb).WithOptionVocab(vocab),
		chats:   chatlock.NewLocal(),
		history: newHistoryCache(historyCacheSize),
		writes:  groupcommit.NewTx(cfg.DB, maxGroup),
		saves:   turnsave.New(cfg.DB, maxGroup),
		hits:    groupcommit.NewTx(cfg.DB, maxGroup),
		metrics: newMetrics(cfg.Registry),
		tracer:  cfg.Tracer.Tracer(tracerName),
		log:     slog.New(logctx.MaskPersonal(cfg.Logger.Handler())),
		live:    &liveSettings{},
		pruner:  &effectPruner{},
		notices: notices,
	}, nil
}

// ErrUnavailable reports a turn that failed because the database was
// unreachable or overloaded (catalog.ErrUnavailable, classified by
// catalog.Unavailable): the shopper was told to try again, and a retry
// later may succeed. HTTP adapters answer 503 with Retry-After.
var ErrUnavailable = catalog.ErrUnavailable

// PoliteMessage is what to tell a shopper when Handle returned err
// without having said anything (a rate limit), in the locale's language.
func PoliteMessage(err error, locale string) string {
	if errors.Is(err, ErrRateLimited) {
		return engineMessage(locale, msgRateLimited)
	}
	return engineMessage(locale, msgSorry)
}

// maxGroup bounds the turns one SQLite transaction persists (persist,
// groupcommit.Tx): enough to share a commit widely, few enough that a
// turn does not wait long behind a big group (with 2,000 conversations,
// 16 kept the overhead's p99 about a fifth lower than 64).
const maxGroup = 16

// maxTurnText bounds a shopper's message.
const maxTurnText = 4000

// Handle answers one turn, streaming the reply to sink. Turns of one chat
// are handled in order; different chats run in parallel. The returned
// error is for the adapter's log; the shopper has already been told
// something polite through the sink. An unreachable database comes back
// as ErrUnavailable, which HTTP adapters answer with 503.
func (e *Engine) Handle(ctx context.Context, t Turn, sink Sink) (err error) {
	defer func() { err = catalog.Unavailable(err) }()
	start := time.Now()
	ctx, turn := logctx.StartTurn(ctx) // every line of the turn names its conversation once known
	ctx, span := e.startTurnSpan(ctx, t)
	defer func() { endSpan(span, err) }()
	if err := validateTurn(&t); err != nil {
		e.metrics.turns.WithLabelValues(t.Channel, "invalid").Inc()
		return err
	}
	e.log.DebugContext(ctx, "turn", "channel", t.Channel, "chat_id", t.ChatID, "text", t.Text)
	key := t.Channel + "\x00" + t.ChatID + "\x00" + t.ThreadID
	unlock := e.chats.Lock(key)
	defer unlock()
	if e.cfg.ChatLocks != nil {
		unlockAll, err := e.cfg.ChatLocks.Lock(ctx, key)
		if err != nil {
			e.metrics.turns.WithLabelValues(t.Channel, "error").Inc()
			e.log.ErrorContext(ctx, "turn not started: chat lock", "channel", t.Channel, "chat_id", t.ChatID, "err", err)
			_ = sink.Send(ctx, Event{Kind: EventError, Text: engineMessage(t.Locale, msgSorry)})
			return err
		}
		defer unlockAll()
	}

	outcome, err := e.handle(ctx, turn, t, sink)
	span.SetAttributes(attrOutcome.String(outcome), attrDegraded.Bool(outcome == "degraded"))
	e.metrics.turns.WithLabelValues(t.Channel, outcome).Inc()
	e.metrics.turnSeconds.WithLabelValues(outcome).Observe(time.Since(start).Seconds())
	if err != nil && !errors.Is(err, ErrRateLimited) && !errors.Is(err, ErrReplayed) && !errors.Is(err, session.ErrCrashed) {
		e.log.ErrorContext(ctx, "turn failed", "channel", t.Channel, "chat_id", t.ChatID, "err", err)
		_ = sink.Send(ctx, Event{Kind: EventError, Text: engineMessage(t.Locale, msgSorry)})
	}
	return err
}

// validateTurn cleans a turn's fields (clean.go) and refuses one that
// cannot be answered.
func validateTurn(t *Turn) error {
	if err := cleanTurn(t); err != nil {
		return err
	}
	t.Text = strings.TrimSpace(t.Text)
	switch {
	case t.Channel == "" || t.ChatID == "" || t.UserID == "":
		return fmt.Errorf("%w: channel, chat and user are required", ErrBadTurn)
	case t.Text == "" && t.Action == nil:
		return fmt.Errorf("%w: empty message", ErrBadTurn)
	case len(t.Text) > maxTurnText:
		return fmt.Errorf("%w: message over %d bytes", ErrBadTurn, maxTurnText)
	}
	return nil
}

// handle runs a validated turn and names its outcome for the metrics.
func (e *Engine) handle(ctx context.Context, turn *logctx.Turn, t Turn, sink Sink) (outcome string, err error) {
	e = e.withSettings(ctx)
	s, counted, err := e.openSession(ctx, t)
	if err != nil {
		return "error", err
	}
	turn.SetConversation(s.Conversation.ID)
	trace.SpanFromContext(ctx).SetAttributes(attrConversation.Int64(s.Conversation.ID))
	sink, flush := replySink(sink, s, e.cfg.Crash != nil)
	if e.cfg.Crash != nil {
		var cancel context.CancelCauseFunc
		ctx, cancel = context.WithCancelCause(ctx)
		defer cancel(nil)
		s.Journal.SetCancel(cancel)
	}
	if s.State.Handled(t.DedupKey) {
		// Delivered again after it was handled: an adapter resuming
		// its inbox after a stop. The shopper has had the answer.
		if counted != nil { // and it does not count against the limit
			if err := catalog.Unhit(ctx, e.cfg.DB, e.limitKey(s), e.turnLimit(), s.Now); err != nil {
				return "error", err
			}
		}
		return "replayed", ErrReplayed
	}
	if hit, err := e.allowTurn(ctx, s, counted); err != nil {
		return "error", err
	} else if !hit.Allowed {
		// Refused before any work: nothing is stored but the counter.
		// The adapter tells the shopper (PoliteMessage) in its own way:
		// a 429 on the web, a chat message elsewhere. Not marked done:
		// the same turn may be sent again once the limit allows.
		e.metrics.rateLimited.Inc()
		return "rate_limited", &RateLimitedError{RetryAfter: hit.RetryAfter}
	}
	if s.Action != nil && s.Action.Kind == view.ActRate {
		return "csat", e.rate(ctx, s, sink) // csat.go: no message is recorded
	}
	rec := &recorder{}
	rec.user(t)
	if s.Conversation.Paused {
		// A merchant has taken over: record the message, stay silent.
		s.State.MarkDone(t.DedupKey)
		return "paused", e.persist(ctx, s, rec)
	}
	s.State.MarkDone(t.DedupKey) // saved with the turn
	outcome, err = e.respond(ctx, s, sink, rec)
	if s.Journal.Stopped() || s.Journal.Step("persist") != nil {
		return "crashed", session.ErrCrashed // nothing more is written
	}
	if ferr := flush(ctx); ferr != nil && err == nil {
		err = ferr
	}
	if perr := e.persist(ctx, s, rec); perr != nil {
		return "error", errors.Join(err, perr)
	}
	e.maybePrune(ctx, s.Now)
	return outcome, err
}

// respond picks who answers: buttons and the planner need no model.
func (e *Engine) respond(ctx context.Context, s *session.Session, sink Sink, rec *recorder) (string, error) {
	if s.Action != nil {
		return "action", e.runAction(ctx, s, sink, rec)
	}
	if e.cfg.Model == nil {
		return "planner", e.runPlanner(ctx, s, sink, rec)
	}
	if e.overTokenBudget(s) {
		e.metrics.degraded.WithLabelValues("token_budget").Inc()
		return "degraded", e.runPlanner(ctx, s, sink, rec)
	}
	err := e.runModel(ctx, s, sink, rec)
	if errors.Is(err, llm.ErrModelUnavailable) {
		e.log.WarnContext(ctx, "model unavailable, offline planner answers", "err", err)
		e.metrics.degraded.WithLabelValues("model_error").Inc()
		return "degraded", e.runPlanner(ctx, s, sink, rec)
	}
	if err != nil {
		return "error", err
	}
	return "model", nil
}

// openSession resolves who is talking, where, and the conversation's
// memory. On Postgres the same statement counts the turn against its
// customer's rate limit (catalog.OpenTurn): counted is that count, nil
// where allowTurn counts it.
func (e *Engine) openSession(ctx context.Context, t Turn) (s *session.Session, counted *catalog.HitResult, err error) {
	now := e.cfg.Now()
	o, err := catalog.OpenTurn(ctx, e.cfg.DB, catalog.Identity{
		Channel: t.Channel, PlatformUserID: t.UserID, DisplayName: t.UserName, Username: t.Username, Locale: t.Locale,
	}, catalog.ConversationKey{Channel: t.Channel, ChatID: t.ChatID, ThreadID: t.ThreadID}, limitPrefix, e.turnLimit(), now, t.Shared)
	if err != nil {
		return nil, nil, err
	}
	if o.Counted {
		counted = &o.Hit
	}
	c, conv := o.Customer, o.Conversation
	if o.Created { // nothing to read back: the conversation is new
		e.history.put(conv.ID, conv.LastMessageAt, nil, nil, e.cfg.HistoryMessages)
	}
	scope := catalog.PersonalCart(c.ID)
	if t.Shared {
		scope = catalog.SharedCart(t.Channel, t.ChatID)
	}
	if t.DedupKey == "" {
		t.DedupKey = fmt.Sprintf("c%d-%d", conv.ID, time.Now().UnixNano())
	}
	s = &session.Session{
		Channel: t.Channel, ChatID: t.ChatID, ThreadID: t.ThreadID, Locale: t.Locale,
		Text: t.Text, Action: t.Action, DedupKey: t.DedupKey,
		Customer: c, Conversation: conv, Scope: scope,
		State: session.LoadState(conv.State), Currency: e.cfg.Currency, Now: now, OpenCart: o.Cart,
	}
	s.Journal = session.NewJournal(s, e.cfg.Crash)
	if t.Text != "" {
		s.State.Lang = s.Lang()
	}
	return s, counted, nil
}

// persist writes the turn's messages, the conversation state and the
// tokens used. On Postgres that is one statement, atomic by itself, shared
// with other turns finishing at the same time (engine/turnsave); on
// SQLite one transaction, shared likewise (groupcommit.Tx).
func (e *Engine) persist(ctx context.Context, s *session.Session, rec *recorder) error {
	ctx = context.WithoutCancel(ctx) // a disconnecting client must not lose the transcript
	stampTrace(ctx, rec.msgs)
	w := catalog.TurnWrites{
		ConversationID: s.Conversation.ID, State: s.State.Encode(), Messages: rec.msgs,
		CustomerID: s.Customer.ID, TokenDay: tokenDay(s.Now), Tokens: rec.tokens(),
	}
	var at time.Time
	var err error
	if e.saves.Grouped(w) {
		// A crash here is one inside the transaction: nothing is sent.
		if err = s.Journal.Step("persist-tx"); err == nil {
			at, err = e.saves.Save(ctx, w)
		}
	} else {
		err = e.writes.Run(ctx, func(ctx context.Context, tx bun.Tx) error {
			var err error
			if at, err = catalog.SaveTurnWrites(ctx, tx, w); err != nil {
				return err
			}
			return s.Journal.Step("persist-tx")
		})
	}
	if err == nil && rec.history != nil {
		e.history.put(s.Conversation.ID, at, rec.history, rec.msgs, e.cfg.HistoryMessages)
	}
	return err
}
