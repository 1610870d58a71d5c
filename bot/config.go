package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"shopbot/admin"
	"shopbot/catalog"
)

// Config is every setting of the shopbot command, read once from the
// environment and flags, validated, and passed down as values.
type Config struct {
	DatabaseURL    string
	HTTPAddr       string
	PublicURL      string
	TrustedProxies string
	AdminPassword  string
	MetricsToken   string

	OpenAIAPIKey  string
	OpenAIBaseURL string
	OpenAIModel   string

	SearchBackend  string
	SearchAlpha    string
	WeaviateURL    string
	WeaviateAPIKey string
	WeaviateGRPC   string
	Embeddings     string

	TelegramBotToken      string
	TelegramAPIURL        string
	TelegramWebhookURL    string
	TelegramWebhookSecret string
	TelegramPaymentToken  string
	SlackBotToken         string
	SlackSigningSecret    string
	SlackAppToken         string
	SlackAPIURL           string
	SlackOrdersChannel    string

	ShopName         string
	ShopCurrency     string
	MaxToolRounds    string
	RateLimitTurns   string
	RateLimitWindow  string
	DailyTokenBudget string

	InboxLease   string
	InboxRenew   string
	InboxSweep   string
	WebNoticeTTL string

	db      catalog.DBInfo       // parsed DatabaseURL
	proxies admin.TrustedProxies // parsed TrustedProxies
	engine  engineLimits         // parsed engine settings
	search  struct{ alpha float64 }
	cover   coverSettings // parsed Inbox* and WebNoticeTTL (cover.go)
}

// engineLimits are the engine settings parsed from Config.
type engineLimits struct {
	maxRounds   int
	rateTurns   int
	rateWindow  time.Duration
	dailyTokens int
}

// usageError is a configuration or command-line mistake: printed as is,
// exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// setting is one configuration variable and where it lands.
type setting struct {
	env, def, help string
	dst            *string
	flag           string // flag name, when the setting has one
}

func (c *Config) settings() []setting {
	return []setting{
		{"DATABASE_URL", "sqlite:shopbot.db", "postgres://… or sqlite:PATH", &c.DatabaseURL, "database-url"},
		{"HTTP_ADDR", "127.0.0.1:8080", "listen address of the admin panel, web chat, webhooks and metrics", &c.HTTPAddr, "http-addr"},
		{"PUBLIC_URL", "", "the server's address as people reach it (https://shop.example.com), for admin links in Slack messages and image URLs; https makes the admin cookies Secure; default http://HTTP_ADDR", &c.PublicURL, "public-url"},
		{"TRUSTED_PROXIES", "", "comma-separated IPs or CIDR ranges of reverse proxies (10.0.0.0/8, 127.0.0.1) whose X-Forwarded-For and X-Forwarded-Proto are believed; none when unset", &c.TrustedProxies, "trusted-proxies"},
		{"ADMIN_PASSWORD", "", "password of the admin user", &c.AdminPassword, ""},
		{"METRICS_TOKEN", "", "bearer token /metrics requires (none when unset)", &c.MetricsToken, ""},
		{"OPENAI_API_KEY", "", "API key of an OpenAI-compatible server", &c.OpenAIAPIKey, ""},
		{"OPENAI_BASE_URL", "", "base URL of an OpenAI-compatible server", &c.OpenAIBaseURL, "openai-base-url"},
		{"OPENAI_MODEL", "gpt-4o-mini", "chat model", &c.OpenAIModel, "openai-model"},
		{"SEARCH_BACKEND", "embedded", "embedded or weaviate", &c.SearchBackend, "search-backend"},
		{"SEARCH_ALPHA", "0.35", "weight of vector similarity in hybrid search, 0 (keywords only) to 1", &c.SearchAlpha, "search-alpha"},
		{"WEAVIATE_URL", "", "Weaviate endpoint", &c.WeaviateURL, "weaviate-url"},
		{"WEAVIATE_API_KEY", "", "Weaviate API key", &c.WeaviateAPIKey, ""},
		{"WEAVIATE_GRPC_ADDR", "", "Weaviate gRPC host:port (plaintext) for fast batch imports; empty: REST", &c.WeaviateGRPC, "weaviate-grpc-addr"},
		{"EMBEDDINGS", "local", "local or openai", &c.Embeddings, "embeddings"},
		{"TELEGRAM_BOT_TOKEN", "", "Telegram bot token", &c.TelegramBotToken, ""},
		{"TELEGRAM_API_URL", "", "Bot API server (tests, self-hosted Bot API)", &c.TelegramAPIURL, ""},
		{"TELEGRAM_WEBHOOK_URL", "", "public webhook URL; long polling when unset", &c.TelegramWebhookURL, ""},
		{"TELEGRAM_WEBHOOK_SECRET", "", "webhook secret token", &c.TelegramWebhookSecret, ""},
		{"TELEGRAM_PAYMENT_PROVIDER_TOKEN", "", "enables Telegram Payments", &c.TelegramPaymentToken, ""},
		{"SLACK_BOT_TOKEN", "", "Slack bot token", &c.SlackBotToken, ""},
		{"SLACK_SIGNING_SECRET", "", "Slack signing secret", &c.SlackSigningSecret, ""},
		{"SLACK_APP_TOKEN", "", "Slack app token (Socket Mode)", &c.SlackAppToken, ""},
		{"SLACK_API_URL", "", "Slack API server (tests)", &c.SlackAPIURL, ""},
		{"SLACK_ORDERS_CHANNEL", "", "Slack channel id for new orders and handoffs from every channel", &c.SlackOrdersChannel, ""},
		{"SHOP_NAME", "Shopbot Demo Shop", "shop name the assistant uses", &c.ShopName, "shop-name"},
		{"SHOP_CURRENCY", "USD", "shop currency (ISO 4217)", &c.ShopCurrency, ""},
		{"MAX_TOOL_ROUNDS", "5", "model calls per turn before a fallback answer", &c.MaxToolRounds, ""},
		{"RATE_LIMIT_TURNS", "20", "turns per customer per RATE_LIMIT_WINDOW", &c.RateLimitTurns, ""},
		{"RATE_LIMIT_WINDOW", "60s", "rate limit window", &c.RateLimitWindow, ""},
		{"DAILY_TOKEN_BUDGET", "200000", "model tokens per customer per day", &c.DailyTokenBudget, ""},
		{"INBOX_LEASE", "25s", "how long a replica's claim on a chat update holds unless renewed; a dead replica's updates are taken over after it (plus INBOX_SWEEP)", &c.InboxLease, ""},
		{"INBOX_LEASE_RENEW", "5s", "how often a replica renews its claims (under INBOX_LEASE)", &c.InboxRenew, ""},
		{"INBOX_SWEEP", "5s", "how often a replica looks for updates no live replica holds", &c.InboxSweep, ""},
		{"WEB_NOTICE_TTL", "24h", "how long a notice waits for a web shopper before it expires", &c.WebNoticeTTL, ""},
	}
}

// loadConfig reads the environment, registers the flags that mirror it on
// fs, parses args, and validates the result.
func loadConfig(fs *flag.FlagSet, args []string, getenv func(string) string) (Config, error) {
	var c Config
	for _, s := range c.settings() {
		*s.dst = s.def
		if s.flag != "" {
			// The default shown by -h is the built-in one, never the
			// environment's value, which may hold a password.
			fs.StringVar(s.dst, s.flag, s.def, s.help+" ($"+s.env+")")
		}
	}
	if err := parseFlags(fs, args); err != nil {
		return c, err
	}
	explicit := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { explicit[f.Name] = true })
	for _, s := range c.settings() {
		if v := getenv(s.env); v != "" && (s.flag == "" || !explicit[s.flag]) {
			*s.dst = v
		}
	}
	return c, c.validate()
}

// parseFlags parses args; -h prints the flags and ends the command
// successfully (flag.ErrHelp), any other flag error is a usage error.
func parseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return usagef("%v", err)
}

func (c *Config) validate() error {
	db, err := catalog.ParseDatabaseURL(c.DatabaseURL)
	if err != nil {
		return usagef("%v", err)
	}
	c.db = db
	if _, _, err := net.SplitHostPort(c.HTTPAddr); err != nil {
		return usagef("HTTP_ADDR %q must be host:port, such as 127.0.0.1:8080", c.HTTPAddr)
	}
	if err := admin.CheckAdminPassword(c.AdminPassword); err != nil {
		return usagef("%v", err)
	}
	if c.PublicURL != "" {
		u, err := url.Parse(c.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return usagef("PUBLIC_URL must be an http:// or https:// URL without query, fragment or credentials, such as https://shop.example.com")
		}
		c.PublicURL = strings.TrimSuffix(u.String(), "/")
	}
	if c.proxies, err = admin.ParseTrustedProxies(c.TrustedProxies); err != nil {
		return usagef("TRUSTED_PROXIES: %v; use IP addresses or CIDR ranges separated by commas, such as 10.0.0.0/8,127.0.0.1", err)
	}
	switch c.SearchBackend {
	case "embedded":
	case "weaviate":
		if c.WeaviateURL == "" {
			return usagef("SEARCH_BACKEND=weaviate needs WEAVIATE_URL")
		}
	default:
		return usagef("SEARCH_BACKEND must be embedded or weaviate (got %q)", c.SearchBackend)
	}
	alpha, err := strconv.ParseFloat(c.SearchAlpha, 64)
	if err != nil || alpha < 0 || alpha > 1 {
		return usagef("SEARCH_ALPHA must be a number from 0 to 1 (got %q)", c.SearchAlpha)
	}
	c.search.alpha = alpha
	if c.Embeddings != "local" && c.Embeddings != "openai" {
		return usagef("EMBEDDINGS must be local or openai (got %q)", c.Embeddings)
	}
	if c.TelegramWebhookURL != "" && !strings.HasPrefix(c.TelegramWebhookURL, "https://") {
		return usagef("TELEGRAM_WEBHOOK_URL must be an https:// URL")
	}
	if c.SlackBotToken != "" && c.SlackSigningSecret == "" && c.SlackAppToken == "" {
		return usagef("SLACK_BOT_TOKEN needs SLACK_SIGNING_SECRET (Events API over HTTP) or SLACK_APP_TOKEN (Socket Mode)")
	}
	cur, err := catalog.NormalizeCurrency(c.ShopCurrency)
	if err != nil {
		return usagef("SHOP_CURRENCY: %q is not an ISO 4217 currency code", c.ShopCurrency)
	}
	c.ShopCurrency = cur
	if err := c.parseCover(); err != nil {
		return err
	}
	return c.parseEngineLimits()
}

func (c *Config) parseEngineLimits() error {
	var err error
	l := &c.engine
	if l.maxRounds, err = intIn("MAX_TOOL_ROUNDS", c.MaxToolRounds, 1, 20); err != nil {
		return err
	}
	if l.rateTurns, err = intIn("RATE_LIMIT_TURNS", c.RateLimitTurns, 1, 10_000); err != nil {
		return err
	}
	if l.dailyTokens, err = intIn("DAILY_TOKEN_BUDGET", c.DailyTokenBudget, 1000, 1_000_000_000); err != nil {
		return err
	}
	if l.rateWindow, err = time.ParseDuration(c.RateLimitWindow); err != nil || l.rateWindow < time.Second || l.rateWindow > 24*time.Hour {
		return usagef("RATE_LIMIT_WINDOW must be a duration from 1s to 24h, such as 60s (got %q)", c.RateLimitWindow)
	}
	return nil
}

func intIn(name, v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, usagef("%s must be a whole number from %d to %d (got %q)", name, lo, hi, v)
	}
	return n, nil
}

// modelStatus says which brain answers shoppers.
func (c *Config) modelStatus() string {
	if c.OpenAIAPIKey == "" && c.OpenAIBaseURL == "" {
		return "offline planner (OPENAI_API_KEY and OPENAI_BASE_URL unset)"
	}
	where := "OpenAI"
	if c.OpenAIBaseURL != "" {
		where = c.OpenAIBaseURL
	}
	return c.OpenAIModel + " at " + where
}

// adapterStatus says, for each channel, whether it runs and why not.
func (c *Config) adapterStatus() [][2]string {
	return [][2]string{
		{"telegram", c.telegramStatus()},
		{"slack", c.slackStatus()},
	}
}

// slackStatus says how the Slack adapter runs.
func (c *Config) slackStatus() string {
	var s string
	switch {
	case c.SlackBotToken == "":
		return "off (SLACK_BOT_TOKEN unset)"
	case c.SlackAppToken != "":
		s = "on (Socket Mode)"
	default:
		s = "on (POST /slack/events, /slack/interactions, /slack/commands)"
	}
	if c.SlackOrdersChannel != "" {
		s += ", orders to " + c.SlackOrdersChannel
	}
	return s
}
