package slack

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/slack-go/slack"
	"github.com/uptrace/bun"

	"shopbot/adapters/inbox"
	"shopbot/engine"
	"shopbot/engine/view"
)

// Handler is the engine as the Slack adapter uses it.
type Handler interface {
	Handle(ctx context.Context, t engine.Turn, sink engine.Sink) error
}

// Shop is what the adapter asks the engine outside a turn: a user's App
// Home, and whether a channel thread is one the assistant takes part in.
// *engine.Engine implements it; it is apart from Handler so tests can
// fake the turns and keep the real shop.
type Shop interface {
	Home(ctx context.Context, who engine.Shopper) (*view.Home, error)
	HasConversation(ctx context.Context, key engine.ConversationKey) (bool, error)
}

// Config is what the adapter needs.
type Config struct {
	BotToken      string // xoxb-…
	SigningSecret string // verifies HTTP requests
	AppToken      string // xapp-…: Socket Mode (RunSocketMode)
	APIURL        string // Slack Web API base; default Slack's
	// OrdersChannel receives merchant notices (new orders, handoffs).
	OrdersChannel string
	// AdminURL is the admin panel's base URL, for links to transcripts.
	AdminURL string
	// Locale is the shop's language, for the assistant's words to a
	// member whose Slack locale is unknown; empty means the catalogue's
	// fallback (English).
	Locale string

	DB         *bun.DB
	Engine     Handler
	Shop       Shop
	Logger     *slog.Logger
	Registry   prometheus.Registerer
	HTTPClient *http.Client
	Now        func() time.Time
	// Received, when set, hears of every request received (event,
	// interaction, command; HTTP or Socket Mode) once it is recorded: the
	// process's channel status.
	Received func(at time.Time)
	// Workers bounds the turns handled at once (default 8).
	Workers int
	// Throttle is the least time between two chat.update calls of one
	// streamed answer when chat.*Stream is unavailable; default 1 s.
	Throttle time.Duration
}

// Adapter connects Slack to the engine.
type Adapter struct {
	cfg     Config
	api     *api
	client  *slack.Client
	queue   *inbox.Queue
	inbox   *inbox.Inbox
	metrics *metrics
	log     *slog.Logger

	botOnce   sync.Once
	botUserID string
	botErr    error
	noStream  atomic.Bool // the API answered unknown_method to chat.startStream
}

// New builds the adapter; work accepted from Slack runs under ctx (the
// process's), and Wait returns once it has finished.
func New(ctx context.Context, cfg Config) (*Adapter, error) {
	if cfg.BotToken == "" || cfg.DB == nil || cfg.Engine == nil || cfg.Shop == nil {
		return nil, errors.New("slack: bot token, DB, engine and shop are required")
	}
	if cfg.SigningSecret == "" && cfg.AppToken == "" {
		return nil, errors.New("slack: SLACK_SIGNING_SECRET (Events API over HTTP) or SLACK_APP_TOKEN (Socket Mode) is required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Registry == nil {
		cfg.Registry = prometheus.NewRegistry()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 8
	}
	if cfg.Throttle <= 0 {
		cfg.Throttle = time.Second
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	opts := []slack.Option{slack.OptionHTTPClient(cfg.HTTPClient)}
	if cfg.APIURL != "" {
		opts = append(opts, slack.OptionAPIURL(cfg.APIURL))
	}
	if cfg.AppToken != "" {
		opts = append(opts, slack.OptionAppLevelToken(cfg.AppToken))
	}
	client := slack.New(cfg.BotToken, opts...)
	m := newMetrics(cfg.Registry)
	return &Adapter{
		cfg: cfg, client: client, api: newAPI(client, m, cfg.Now), queue: inbox.NewQueue(ctx, inbox.Limits{Workers: cfg.Workers}),
		inbox:   inbox.New(ctx, cfg.DB, "slack"),
		metrics: m, log: cfg.Logger,
	}, nil
}

// Endpoints are the HTTP handlers Slack calls: the Events API, the
// interactivity request URL and the slash commands. bot/routes.go gives
// them their paths (/slack/events, /slack/interactions, /slack/commands).
func (a *Adapter) Endpoints() (events, interactions, commands http.Handler) {
	return http.HandlerFunc(a.serveEvents), http.HandlerFunc(a.serveInteractions), http.HandlerFunc(a.serveCommands)
}

// Wait blocks until the work accepted so far is done (after the process
// context ends, the in-flight turns finish or give up).
func (a *Adapter) Wait() { a.queue.Wait() }

// Check asks Slack who the bot is (auth.test), which also proves the
// token; bot/ calls it at startup, else the first event does.
func (a *Adapter) Check(ctx context.Context) error {
	a.botUser(ctx)
	return a.botErr
}

// botUser returns the bot's own user id (auth.test, once).
func (a *Adapter) botUser(ctx context.Context) string {
	a.botOnce.Do(func() {
		var res *slack.AuthTestResponse
		err := a.api.do(ctx, "auth.test", func(ctx context.Context) (err error) {
			res, err = a.client.AuthTestContext(ctx)
			return err
		})
		if err != nil {
			a.botErr = fmt.Errorf("slack: auth.test: %w", err)
			a.log.WarnContext(ctx, "slack auth.test failed; own messages are recognised by bot_id only", "err", err)
			return
		}
		a.botUserID = res.UserID
	})
	return a.botUserID
}
