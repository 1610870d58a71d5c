package main

// The reference list of every setting shopbot reads from the environment,
// and what is rendered from it: each command's -h, and `shopbot settings`
// (--markdown: the README's configuration table). Adding a setting is one
// entry in Config.settings below (its validation, if any, goes in
// config.go's validate); TestEverySettingIsListed fails for a getenv
// whose name is not here.

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// setting is one environment variable, where it lands and who reads it.
type setting struct {
	env, def, help string
	dst            *string
	flag           string   // the flag that mirrors it; "" for secrets and rarely changed settings
	cmds           []string // the commands that read it
}

// The commands that read each group of settings.
var (
	serveCmds    = []string{"serve"}
	httpCmds     = []string{"serve", "healthcheck"}
	dbCmds       = strings.Fields("serve chat migrate import import-pages import-reviews reindex search-eval eval replay bench demo customer")
	searchCmds   = strings.Fields("serve chat reindex search-eval eval replay bench")
	engineCmds   = strings.Fields("serve chat eval replay")
	currencyCmds = strings.Fields("serve chat search-eval eval replay")
	// modelCmds talk to the model, or to the embeddings API with EMBEDDINGS=openai.
	modelCmds = strings.Fields("serve chat reindex search-eval eval replay bench")
)

// settings is the list: environment variable, default, meaning, field,
// flag, commands.
func (c *Config) settings() []setting {
	return []setting{
		{"DATABASE_URL", "sqlite:shopbot.db", "postgres://… or sqlite:PATH", &c.DatabaseURL, "database-url", dbCmds},
		{"HTTP_ADDR", "127.0.0.1:8080", "listen address of the admin panel, web chat, webhooks and metrics", &c.HTTPAddr, "http-addr", httpCmds},
		{"PUBLIC_URL", "", "the server's address as people reach it (https://shop.example.com), for admin links in Slack messages and image URLs; https makes the admin cookies Secure; default http://HTTP_ADDR", &c.PublicURL, "public-url", serveCmds},
		{"TRUSTED_PROXIES", "", "comma-separated IPs or CIDR ranges of reverse proxies (10.0.0.0/8, 127.0.0.1) whose X-Forwarded-For and X-Forwarded-Proto are believed; none when unset", &c.TrustedProxies, "trusted-proxies", serveCmds},
		{"ADMIN_PASSWORD", "", "password of the admin user", &c.AdminPassword, "", serveCmds},
		{"METRICS_TOKEN", "", "bearer token /metrics requires (none when unset)", &c.MetricsToken, "", serveCmds},
		{"OPENAI_API_KEY", "", "API key of an OpenAI-compatible server", &c.OpenAIAPIKey, "", modelCmds},
		{"OPENAI_BASE_URL", "", "base URL of an OpenAI-compatible server", &c.OpenAIBaseURL, "openai-base-url", modelCmds},
		{"OPENAI_MODEL", "gpt-4o-mini", "chat model", &c.OpenAIModel, "openai-model", engineCmds},
		{"SEARCH_BACKEND", "embedded", "embedded or weaviate", &c.SearchBackend, "search-backend", searchCmds},
		{"SEARCH_ALPHA", "0.35", "weight of vector similarity in hybrid search, 0 (keywords only) to 1", &c.SearchAlpha, "search-alpha", searchCmds},
		{"WEAVIATE_URL", "", "Weaviate endpoint", &c.WeaviateURL, "weaviate-url", searchCmds},
		{"WEAVIATE_API_KEY", "", "Weaviate API key", &c.WeaviateAPIKey, "", searchCmds},
		{"WEAVIATE_GRPC_ADDR", "", "Weaviate gRPC host:port (plaintext) for fast batch imports; empty: REST", &c.WeaviateGRPC, "weaviate-grpc-addr", searchCmds},
		{"EMBEDDINGS", "local", "local or openai", &c.Embeddings, "embeddings", searchCmds},
		{"TELEGRAM_BOT_TOKEN", "", "Telegram bot token", &c.TelegramBotToken, "", serveCmds},
		{"TELEGRAM_API_URL", "", "Bot API server (tests, self-hosted Bot API)", &c.TelegramAPIURL, "", serveCmds},
		{"TELEGRAM_WEBHOOK_URL", "", "public webhook URL; long polling when unset", &c.TelegramWebhookURL, "", serveCmds},
		{"TELEGRAM_WEBHOOK_SECRET", "", "webhook secret token", &c.TelegramWebhookSecret, "", serveCmds},
		{"TELEGRAM_PAYMENT_PROVIDER_TOKEN", "", "enables Telegram Payments", &c.TelegramPaymentToken, "", serveCmds},
		{"SLACK_BOT_TOKEN", "", "Slack bot token", &c.SlackBotToken, "", serveCmds},
		{"SLACK_SIGNING_SECRET", "", "Slack signing secret", &c.SlackSigningSecret, "", serveCmds},
		{"SLACK_APP_TOKEN", "", "Slack app token (Socket Mode)", &c.SlackAppToken, "", serveCmds},
		{"SLACK_API_URL", "", "Slack API server (tests)", &c.SlackAPIURL, "", serveCmds},
		{"SLACK_ORDERS_CHANNEL", "", "Slack channel id for new orders and handoffs from every channel", &c.SlackOrdersChannel, "", serveCmds},
		{"DEMO", "true", "load the demo shop (324 listings, pages, delivery methods) into an empty database at first start; false starts an empty shop. Once removed (shopbot demo remove) it is not loaded again", &c.Demo, "demo", serveCmds},
		{"SHOP_NAME", "Shopbot Demo Shop", "shop name the assistant uses", &c.ShopName, "shop-name", engineCmds},
		{"SHOP_CURRENCY", "USD", "shop currency (ISO 4217)", &c.ShopCurrency, "", currencyCmds},
		{"MAX_TOOL_ROUNDS", "5", "model calls per turn before a fallback answer", &c.MaxToolRounds, "", engineCmds},
		{"RATE_LIMIT_TURNS", "20", "turns per customer per RATE_LIMIT_WINDOW", &c.RateLimitTurns, "", engineCmds},
		{"RATE_LIMIT_WINDOW", "60s", "rate limit window", &c.RateLimitWindow, "", engineCmds},
		{"DAILY_TOKEN_BUDGET", "200000", "model tokens per customer per day", &c.DailyTokenBudget, "", engineCmds},
		{"DB_MAX_CONNS", "20", "Postgres connections of the main pool per process (queries; each running Telegram or Slack inbox keeps one of them)", &c.DBMaxConns, "db-max-conns", dbCmds},
		{"DB_LOCK_CONNS", "4", "Postgres sessions per process holding the cross-replica chat locks, beside the main pool", &c.DBLockConns, "db-lock-conns", dbCmds},
		{"INBOX_LEASE", "25s", "how long a replica's claim on a chat update, or on Telegram long polling, holds unless renewed; a dead replica's updates are taken over after it (plus INBOX_SWEEP), its polling after it (plus INBOX_LEASE_RENEW)", &c.InboxLease, "", serveCmds},
		{"INBOX_LEASE_RENEW", "5s", "how often a replica renews its claims (under INBOX_LEASE)", &c.InboxRenew, "", serveCmds},
		{"INBOX_SWEEP", "5s", "how often a replica looks for updates no live replica holds", &c.InboxSweep, "", serveCmds},
		{"LOG_FORMAT", "text", "log lines as text (key=value) or json, on stderr", &c.LogFormat, "", dbCmds},
		{"LOG_LEVEL", "", "debug, info, warn or error; unset: info for serve, warn for the other commands", &c.LogLevel, "", dbCmds},
		{"OTEL_EXPORTER_OTLP_ENDPOINT", "", "OTLP/HTTP collector to send traces to (http://otel-collector:4318); traces are off without it (docs/observability.md)", &c.OTelEndpoint, "", serveCmds},
		{"OTEL_TRACES_EXPORTER", "", "otlp turns traces on (to localhost:4318 without an endpoint), none turns them off", &c.OTelTracesExporter, "", serveCmds},
		{"WEB_NOTICE_TTL", "24h", "how long a notice waits for a web shopper before it expires", &c.WebNoticeTTL, "", serveCmds},
		{"MCP", "on", "on: serve the shop's tools to AI agents at /mcp (MCP, streamable HTTP; docs/mcp.md); off: no /mcp", &c.MCP, "mcp", serveCmds},
		{"FEEDS", "on", "on: publish the product feeds for AI agents and search engines at /feeds/products.json, /feeds/products.csv (OpenAI) and /feeds/google.xml (Google Merchant Center); off: none (docs/feeds.md)", &c.Feeds, "", serveCmds},
		{"MCP_TOKEN", "", "bearer token /mcp and /ucp/v1 require (none when unset: any agent may shop)", &c.MCPToken, "", serveCmds},
		{"RETURN_WINDOW_DAYS", "30", "days after delivery a shopper may ask a return or exchange in the chat (request_return); 0: no limit. Keep the shop's returns page saying the same (docs/aftersale.md)", &c.ReturnWindowDays, "", engineCmds},
		{"UCP", "on", "on: serve the Universal Commerce Protocol profile at /.well-known/ucp and checkout sessions at /ucp/v1 (docs/mcp.md); off: neither", &c.UCP, "ucp", serveCmds},
		{"WEB_CHAT_ORIGINS", "", "comma-separated origins (https://www.example.com) whose pages may embed the web chat widget; the shop's own origin always may; * allows any", &c.WebChatOrigins, "", serveCmds},
	}
}

// settingsFor are the settings cmd reads, in the list's order.
func settingsFor(cmd string) []setting {
	var out []setting
	for _, s := range new(Config).settings() {
		if slices.Contains(s.cmds, cmd) {
			out = append(out, s)
		}
	}
	return out
}

// printEnvHelp lists the settings cmd reads, for its -h.
func printEnvHelp(w io.Writer, cmd string) {
	list := settingsFor(cmd)
	if len(list) == 0 {
		return
	}
	fmt.Fprintln(w, "\nEnvironment (a flag, where there is one, wins over its variable):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range list {
		def := s.def
		if def == "" {
			def = "(unset)"
		}
		flagNote := ""
		if s.flag != "" {
			flagNote = "  [--" + s.flag + "]"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s%s\n", s.env, def, s.help, flagNote)
	}
	tw.Flush()
}

// settingsCmd prints the reference of every setting: a plain table, or
// with --markdown the table the README's configuration section shows.
func settingsCmd(e env, args []string) error {
	fs := flag.NewFlagSet("settings", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	markdown := fs.Bool("markdown", false, "print a Markdown table")
	describe(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("settings takes no arguments")
	}
	if *markdown {
		printSettingsMarkdown(e.stdout)
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "VARIABLE\tDEFAULT\tFLAG\tCOMMANDS\tMEANING")
	for _, s := range new(Config).settings() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", s.env, orDash(s.def), orDash(flagName(s)), strings.Join(s.cmds, ","), s.help)
	}
	return tw.Flush()
}

// printSettingsMarkdown writes the reference as a Markdown table.
func printSettingsMarkdown(w io.Writer) {
	fmt.Fprintln(w, "| variable | default | flag | read by | meaning |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- |")
	cell := func(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
	code := func(s string) string {
		if s == "" {
			return ""
		}
		return "`" + s + "`"
	}
	for _, s := range new(Config).settings() {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", code(s.env), code(s.def), code(flagName(s)),
			cell(strings.Join(s.cmds, ", ")), cell(s.help))
	}
}

func flagName(s setting) string {
	if s.flag == "" {
		return ""
	}
	return "--" + s.flag
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
