package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"shopbot/adapters/telegram"
	"shopbot/adapters/web"
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

	ShopName           string
	ShopCurrency       string
	MaxToolRounds      string
	RateLimitTurns     string
	RateLimitWindow    string
	DailyTokenBudget   string
	ReturnWindowDays   string
	DBMaxConns         string
	DBLockConns        string
	Demo               string
	InboxLease         string
	InboxRenew         string
	InboxSweep         string
	WebNoticeTTL       string
	LogFormat          string
	LogLevel           string
	OTelEndpoint       string
	OTelTracesExporter string
	WebChatOrigins     string
	MCP                string
	MCPToken           string
	Feeds              string
	UCP                string

	db catalog.DBInfo // parsed DatabaseURL
	// telegramTokenErr: TELEGRAM_BOT_TOKEN is set but malformed. Not a
	// usage error: the shop starts without Telegram and shows why.
	telegramTokenErr string
	pool             dbPool               // parsed DBMaxConns, DBLockConns
	demo             bool                 // parsed Demo
	proxies          admin.TrustedProxies // parsed TrustedProxies
	engine           engineLimits         // parsed engine settings
	search           struct{ alpha float64 }
	cover            coverSettings // parsed Inbox* and WebNoticeTTL (cover.go)
	mcpOn            bool          // parsed MCP
	feedsOn          bool          // parsed Feeds
	ucpOn            bool          // parsed UCP
	webOrigins       *web.Origins  // parsed WebChatOrigins (webchat.go)
}

// engineLimits are the engine settings parsed from Config.
type engineLimits struct {
	maxRounds   int
	rateTurns   int
	rateWindow  time.Duration
	dailyTokens int
	returnDays  int // RETURN_WINDOW_DAYS; 0: no limit
}

// usageError is a configuration or command-line mistake: printed as is,
// exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// loadConfig reads the settings the command reads (the flag set is named
// after the command; see settings.go), registers the flags that mirror
// them on fs, parses args, and validates the result. Settings the command
// does not read keep their defaults.
func loadConfig(fs *flag.FlagSet, args []string, getenv func(string) string) (Config, error) {
	var c Config
	cmd := fs.Name()
	if !isCommand(cmd) {
		return c, fmt.Errorf("loadConfig: no command named %q (name the flag set after the command)", cmd)
	}
	var mine []setting
	for _, s := range c.settings() {
		*s.dst = s.def
		if !slices.Contains(s.cmds, cmd) {
			continue
		}
		mine = append(mine, s)
		switch {
		case s.flag == "":
		case s.def == "true" || s.def == "false":
			// A yes/no setting: its flag may be bare (--demo) or valued
			// (--demo=false), like a flag.Bool.
			fs.Var((*boolSetting)(s.dst), s.flag, s.help+" ($"+s.env+")")
		default:
			// The default shown by -h is the built-in one, never the
			// environment's value, which may hold a password.
			fs.StringVar(s.dst, s.flag, s.def, s.help+" ($"+s.env+")")
		}
	}
	describe(fs)
	if err := parseFlags(fs, args); err != nil {
		return c, err
	}
	explicit := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { explicit[f.Name] = true })
	for _, s := range mine {
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
	if c.TelegramBotToken != "" && telegram.CheckToken(c.TelegramBotToken) != nil {
		c.telegramTokenErr = malformedTelegramToken
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
	if err := c.parsePool(); err != nil {
		return err
	}
	if c.demo, err = strconv.ParseBool(c.Demo); err != nil {
		return usagef("DEMO must be true or false (got %q)", c.Demo)
	}
	if err := c.parseCover(); err != nil {
		return err
	}
	if c.mcpOn, err = onOff(c.MCP); err != nil {
		return usagef("MCP must be on or off (got %q)", c.MCP)
	}
	if c.feedsOn, err = onOff(c.Feeds); err != nil {
		return usagef("FEEDS must be on or off (got %q)", c.Feeds)
	}
	if c.ucpOn, err = onOff(c.UCP); err != nil {
		return usagef("UCP must be on or off (got %q)", c.UCP)
	}
	if c.webOrigins, err = web.ParseOrigins(c.WebChatOrigins, c.PublicURL); err != nil {
		return usagef("%v", err)
	}
	if err := c.parseTracing(); err != nil {
		return err
	}
	return c.parseEngineLimits()
}

// dbPool sizes the Postgres connections of one process: maxConns in the
// main pool (catalog.OpenDB; the Telegram and Slack inboxes each keep one
// of them while they run) and lockConns chat-lock sessions
// (catalog/chatlock). A process opens at most maxConns + lockConns
// connections (20 + 4 = 24 by default), so N replicas need N times that
// below the server's max_connections. SQLite ignores both.
type dbPool struct {
	maxConns, lockConns int
}

// total is the most connections one process opens.
func (p dbPool) total() int { return p.maxConns + p.lockConns }

func (c *Config) parsePool() error {
	var err error
	if c.pool.maxConns, err = intIn("DB_MAX_CONNS", c.DBMaxConns, 4, 1000); err != nil {
		return err
	}
	if c.pool.lockConns, err = intIn("DB_LOCK_CONNS", c.DBLockConns, 1, 64); err != nil {
		return err
	}
	return nil
}

// boolSetting is a yes/no setting's flag: bare means true.
type boolSetting string

func (b *boolSetting) String() string {
	if b == nil {
		return ""
	}
	return string(*b)
}
func (b *boolSetting) Set(v string) error { *b = boolSetting(v); return nil }
func (b *boolSetting) IsBoolFlag() bool   { return true }

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
	if l.returnDays, err = intIn("RETURN_WINDOW_DAYS", c.ReturnWindowDays, 0, 3650); err != nil {
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

// returnWindow is RETURN_WINDOW_DAYS as the engine takes it: negative for
// no limit (0 days), since the engine's zero value means its default.
func returnWindow(days int) time.Duration {
	if days == 0 {
		return -1
	}
	return time.Duration(days) * 24 * time.Hour
}
