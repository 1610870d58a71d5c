package admin

import (
	"context"
	"html/template"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"
	"golang.org/x/crypto/bcrypt"

	"shopbot/catalog"
	"shopbot/catalog/demo"
	"shopbot/catalog/live"
	"shopbot/catalog/search"
	"shopbot/engine"
)

// Config is what the admin server needs from the process.
type Config struct {
	Registry *prometheus.Registry
	// Ready reports whether the process can serve traffic: database
	// reachable, schema current, startup finished.
	Ready func(ctx context.Context) error

	// DB is the shop's database; the panel pages need it, the probes and
	// metrics do not.
	DB *bun.DB
	// Notifier tells shoppers about order status changes and merchant
	// replies (adapters.Hub routes them to the channel's adapter).
	Notifier engine.Notifier
	// Search, when set, answers the product list's text searches (the
	// shop's search index); without it they scan titles with LIKE.
	Search Searcher
	// Settings are the merchant's settings, shared with the engine.
	Settings *catalog.SettingsStore
	// PublicURL is the server's address as people reach it (PUBLIC_URL);
	// an https one makes the panel's cookies Secure, and uploaded images
	// get absolute URLs under it.
	PublicURL string
	// WidgetOrigins are the sites allowed to embed the web chat widget
	// (WEB_CHAT_ORIGINS, the shop's own first), shown with the embed
	// snippet in Settings.
	WidgetOrigins []string
	// Feeds tells whether the product feeds are served (FEEDS), for the
	// Settings page.
	Feeds bool
	// TrustedProxies are the reverse proxies whose X-Forwarded-For and
	// X-Forwarded-Proto are believed (TRUSTED_PROXIES); none by default.
	TrustedProxies TrustedProxies
	// MCPOn and UCPOn: the doors for AI agents are served (MCP, UCP),
	// shown in Settings.
	MCPOn, UCPOn bool
	// MetricsToken, when set, is the bearer token /metrics requires.
	MetricsToken string
	Logger       *slog.Logger
	// SessionTTL bounds a sign-in (default 12 h); SessionIdle ends one
	// unused that long (default 2 h).
	SessionTTL  time.Duration
	SessionIdle time.Duration
	Now         func() time.Time
	// Replayer replays stored turns in a sandbox (the Replay pages, the
	// playground's scenario download); nil hides them.
	Replayer Replayer
	// Channels, when set, reports each channel's state as this process
	// sees it (bot/status.go); the Settings page lists them.
	Channels func() []ChannelStatus
	// Live wakes the panel's event stream (/admin/events) when the inbox
	// changes, on any replica; without it the stream answers 503 and the
	// pages work as before (they just do not update by themselves).
	Live *live.Hub
	// Copilot drafts replies and summaries on taken-over conversations
	// (copilot.go; the engine's); nil hides them.
	Copilot Copilot
}

// Searcher is the shop's product search (catalog/search).
type Searcher interface {
	Search(ctx context.Context, q search.Query) (search.Results, error)
}

// Server holds the admin handlers (Handlers) and what they share.
type Server struct {
	cfg      Config
	reg      *prometheus.Registry
	ready    func(ctx context.Context) error
	metrics  *metrics
	db       *bun.DB
	log      *slog.Logger
	pages    map[string]*template.Template
	compare  func(hash, password []byte) error // bcrypt's; tests count it
	pruner   *catalog.LimitPruner
	devices  deviceKeys // signs known-device cookies (login_device.go)
	imports  *importJobs
	settings *catalog.SettingsStore
	tree     *treeCache
	replay   replayJob
	tiles    *demo.Tiles // the demo listings' images, drawn on request
	// auditFail injects a failure at a stage of an audit entry (tests).
	auditFail func(stage string) error
}

// New builds a Server.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.SessionTTL <= 0 {
		cfg.SessionTTL = 12 * time.Hour
	}
	if cfg.SessionIdle <= 0 {
		cfg.SessionIdle = 2 * time.Hour
	}
	if cfg.Settings == nil && cfg.DB != nil {
		cfg.Settings = catalog.NewSettingsStore(cfg.DB, catalog.Settings{})
	}
	s := &Server{
		cfg:      cfg,
		reg:      cfg.Registry,
		ready:    cfg.Ready,
		metrics:  newMetrics(cfg.Registry),
		db:       cfg.DB,
		log:      cfg.Logger,
		pages:    mustParsePages(),
		compare:  bcrypt.CompareHashAndPassword,
		pruner:   &catalog.LimitPruner{},
		imports:  newImportJobs(),
		tree:     &treeCache{},
		settings: cfg.Settings,
		tiles:    demo.NewTiles(),
	}
	if cfg.DB != nil && cfg.Registry != nil {
		cfg.Registry.MustRegister(newShopCollector(cfg.DB))
	}
	return s
}
