package telegram

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/adapters/inbox"
	"shopbot/engine"
	"shopbot/engine/payments"
	"shopbot/engine/view"
)

// Handler is the engine as the adapter uses it.
type Handler interface {
	Handle(ctx context.Context, t engine.Turn, sink engine.Sink) error
}

// Shop is what the adapter asks the engine outside a turn: whether a
// pressed product can be added (the toast), and whether a payment may go
// ahead and its record once made. *engine.Engine implements it; it is
// apart from Handler so tests can fake the turns and keep the real shop.
type Shop interface {
	CanAdd(ctx context.Context, sku string) (bool, error)
	PreCheckout(ctx context.Context, p payments.Payment) error
	ConfirmPayment(ctx context.Context, p payments.Payment) (*view.OrderView, bool, error)
}

// Config is what the adapter needs. Zero durations get the defaults.
type Config struct {
	Token         string
	APIURL        string // default https://api.telegram.org
	WebhookURL    string // webhook mode when set; long polling otherwise
	WebhookSecret string // required in webhook mode
	PaymentToken  string // enables invoices at checkout
	ShopName      string

	Engine   Handler
	Shop     Shop
	DB       *bun.DB
	Logger   *slog.Logger
	Registry prometheus.Registerer
	// Received, when set, hears of every update received (webhook or
	// long polling) once it is recorded: the process's channel status.
	Received func(at time.Time)

	PollTimeout time.Duration // getUpdates long-poll timeout; default 50 s
	// Pacing of new messages: one per PrivateEvery in private chats (1 s)
	// and per GroupEvery in groups (3 s: 20 a minute), after a burst of
	// Burst (3).
	PrivateEvery, GroupEvery time.Duration
	Burst                    int
	// StreamEvery bounds how often a streamed answer is updated (1 s);
	// StreamAfter is how long an answer must take before streaming starts.
	StreamEvery, StreamAfter time.Duration
	// Concurrency bounds the chats whose turns run at once (4), so a
	// burst of updates cannot starve the database pool.
	Concurrency int
	// Lease is how replicas cover for each other's updates (zero values:
	// inbox.DefaultLease, DefaultRenew, DefaultSweep); see inbox.Lease.
	Lease inbox.Lease
}

func (c *Config) defaults() error {
	if c.Token == "" || c.Engine == nil || c.Shop == nil || c.DB == nil {
		return errors.New("telegram: token, engine, shop and database are required")
	}
	if c.WebhookURL != "" && c.WebhookSecret == "" {
		return errors.New("telegram: TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_WEBHOOK_URL")
	}
	if c.APIURL == "" {
		c.APIURL = "https://api.telegram.org"
	}
	c.APIURL = strings.TrimRight(c.APIURL, "/")
	if c.ShopName == "" {
		c.ShopName = "Shopbot Demo Shop"
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Registry == nil {
		c.Registry = prometheus.NewRegistry()
	}
	setDefault(&c.PollTimeout, 50*time.Second)
	setDefault(&c.PrivateEvery, time.Second)
	setDefault(&c.GroupEvery, 3*time.Second)
	setDefault(&c.StreamEvery, time.Second)
	setDefault(&c.StreamAfter, 700*time.Millisecond)
	if c.Burst <= 0 {
		c.Burst = 3
	}
	if c.Concurrency <= 0 {
		c.Concurrency = 4
	}
	return nil
}

func setDefault(d *time.Duration, v time.Duration) {
	if *d <= 0 {
		*d = v
	}
}

// Adapter is the Telegram channel: it receives updates (long polling or
// webhook), records them, runs each chat's turns in order through the
// engine and renders the replies.
type Adapter struct {
	cfg     Config
	bot     *bot.Bot
	http    *http.Client
	log     *slog.Logger
	metrics *metrics
	pacer   *pacer
	inbox   *inbox.Inbox
	poller  *inbox.Role // long polling: one replica at a time calls getUpdates
	queue   *inbox.Queue
	now     func() time.Time

	ctx     context.Context // lives until Run returns
	cancel  context.CancelFunc
	me      atomic.Pointer[models.User]
	started chan struct{} // closed once Run has resumed the inbox: new updates may come in

	noDrafts atomic.Bool // the server answered 404 to sendMessageDraft
	draftSeq atomic.Int64

	goneMu    sync.Mutex
	goneChats map[int64]time.Time
	links     linkMemo       // invoice links of agents' orders (invoice_link.go)
	side      sync.WaitGroup // updates being recorded, pre-checkout answers, callback answers, the pruner
	sideMu    sync.Mutex     // orders side.Add before stop's side.Wait
	stopping  bool
}

// New builds the adapter; Run starts it.
func New(cfg Config) (*Adapter, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	httpc := &http.Client{Timeout: cfg.PollTimeout + 15*time.Second}
	b, err := bot.New(cfg.Token,
		bot.WithServerURL(cfg.APIURL), bot.WithSkipGetMe(), bot.WithHTTPClient(cfg.PollTimeout, httpc),
		bot.WithErrorsHandler(func(err error) { cfg.Logger.Warn("telegram library", "err", err) }))
	if err != nil {
		return nil, fmt.Errorf("telegram: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	a := &Adapter{
		cfg: cfg, bot: b, http: httpc, log: cfg.Logger, metrics: newMetrics(cfg.Registry),
		pacer: newPacer(cfg.PrivateEvery, cfg.GroupEvery, cfg.Burst), now: time.Now,
		ctx: ctx, cancel: cancel, started: make(chan struct{}), goneChats: map[int64]time.Time{},
	}
	if a.inbox, err = inbox.NewLeased(ctx, cfg.DB, "telegram", cfg.Lease); err != nil {
		cancel()
		return nil, fmt.Errorf("telegram: %w", err)
	}
	poll := cfg.Lease
	poll.Holder = a.inbox.Holder()
	if a.poller, err = inbox.NewRole(cfg.DB, "telegram-poll", poll); err != nil {
		cancel()
		return nil, fmt.Errorf("telegram: %w", err)
	}
	a.queue = inbox.NewQueue(ctx, inbox.Limits{Workers: cfg.Concurrency})
	return a, nil
}

// Run starts the bot and blocks until ctx is cancelled: it learns its own
// name (getMe), registers the commands, forgets old handled updates, resumes
// updates recorded but not handled that no replica holds (a restart's, a
// dead replica's), and receives by webhook or long polling. Meanwhile it
// renews its claims and takes over the updates of replicas that died
// (cover.go). In long polling, only one replica of a database polls at a
// time (inbox.Role).
func (a *Adapter) Run(ctx context.Context) error {
	defer a.stop()
	me, err := a.getMe(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil // stopped while connecting
		}
		return err
	}
	a.me.Store(me)
	a.setCommands(ctx)
	a.inbox.PruneOld(ctx, a.log)
	if err := a.resume(ctx); err != nil {
		return err
	}
	close(a.started)
	a.side.Add(2)
	go func() {
		defer a.side.Done()
		a.inbox.PruneDaily(a.ctx, a.log) // a.ctx: ends when Run returns, however it returns
	}()
	go func() {
		defer a.side.Done()
		a.inbox.Cover(a.ctx, a.log, a.takeOver)
	}()
	if a.cfg.WebhookURL != "" {
		if err := a.setWebhook(ctx); err != nil {
			return err
		}
		<-ctx.Done()
		return nil
	}
	// Telegram answers a second getUpdates with 409 Conflict and cuts
	// the first short: among replicas, the holder of the poller role
	// polls; another takes over within a lease of its death.
	return a.poller.Do(ctx, a.log, a.poll)
}

// stop cancels the chat queues and waits for the turns in flight.
func (a *Adapter) stop() {
	a.cancel()
	a.sideMu.Lock()
	a.stopping = true
	a.sideMu.Unlock()
	a.queue.Wait()
	a.side.Wait()
	a.release()
}

// enter counts an update being recorded in side, unless the adapter is
// stopping: what it dispatches then adds to side while the count is above
// zero, before stop waits.
func (a *Adapter) enter() bool {
	a.sideMu.Lock()
	defer a.sideMu.Unlock()
	if a.stopping {
		return false
	}
	a.side.Add(1)
	return true
}

// getMe asks the server who the bot is, retrying while it is unreachable.
func (a *Adapter) getMe(ctx context.Context) (*models.User, error) {
	delay := 500 * time.Millisecond
	for {
		me, err := a.bot.GetMe(ctx)
		if err == nil {
			a.log.InfoContext(ctx, "telegram bot connected", "username", me.Username)
			return me, nil
		}
		err = a.getMeError(err)
		if refused := new(TokenRefusedError); errors.As(err, &refused) {
			return nil, err
		}
		a.log.WarnContext(ctx, "telegram Bot API unreachable, retrying", "err", err, "retry_in", delay)
		if err := sleep(ctx, delay); err != nil {
			return nil, err
		}
		delay = min(2*delay, 30*time.Second)
	}
}

// username is the bot's @name, once known.
func (a *Adapter) username() string {
	if me := a.me.Load(); me != nil {
		return me.Username
	}
	return ""
}

func (a *Adapter) setWebhook(ctx context.Context) error {
	_, err := a.bot.SetWebhook(ctx, &bot.SetWebhookParams{
		URL: a.cfg.WebhookURL, SecretToken: a.cfg.WebhookSecret, AllowedUpdates: allowedUpdates,
	})
	a.metrics.sends.WithLabelValues("setWebhook", outcomeOf(err)).Inc()
	if err != nil {
		return fmt.Errorf("telegram: setWebhook %s: %w", a.cfg.WebhookURL, err)
	}
	a.log.InfoContext(ctx, "telegram webhook registered", "url", a.cfg.WebhookURL)
	return nil
}

// allowedUpdates are the update types the bot asks for.
var allowedUpdates = []string{"message", "callback_query", "pre_checkout_query"}
