package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"strings"

	"shopbot/catalog"
)

// Config is every setting of the shopbot command, read once from the
// environment and flags, validated, and passed down as values.
type Config struct {
	DatabaseURL   string
	HTTPAddr      string
	AdminPassword string

	OpenAIAPIKey  string
	OpenAIBaseURL string
	OpenAIModel   string

	SearchBackend  string
	WeaviateURL    string
	WeaviateAPIKey string
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

	db catalog.DBInfo // parsed DatabaseURL
}

// errUsage marks a configuration or command-line error (exit status 2).
var errUsage = errors.New("usage")

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
		{"ADMIN_PASSWORD", "", "password of the admin user", &c.AdminPassword, ""},
		{"OPENAI_API_KEY", "", "API key of an OpenAI-compatible server", &c.OpenAIAPIKey, ""},
		{"OPENAI_BASE_URL", "", "base URL of an OpenAI-compatible server", &c.OpenAIBaseURL, "openai-base-url"},
		{"OPENAI_MODEL", "gpt-4o-mini", "chat model", &c.OpenAIModel, "openai-model"},
		{"SEARCH_BACKEND", "embedded", "embedded or weaviate", &c.SearchBackend, "search-backend"},
		{"WEAVIATE_URL", "", "Weaviate endpoint", &c.WeaviateURL, "weaviate-url"},
		{"WEAVIATE_API_KEY", "", "Weaviate API key", &c.WeaviateAPIKey, ""},
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
	}
}

// loadConfig reads the environment, registers the flags that mirror it on
// fs, parses args, and validates the result.
func loadConfig(fs *flag.FlagSet, args []string, getenv func(string) string) (Config, error) {
	var c Config
	for _, s := range c.settings() {
		*s.dst = s.def
		if v := getenv(s.env); v != "" {
			*s.dst = v
		}
		if s.flag != "" {
			fs.StringVar(s.dst, s.flag, *s.dst, s.help+" ($"+s.env+")")
		}
	}
	if err := fs.Parse(args); err != nil {
		return c, fmt.Errorf("%w: %v", errUsage, err)
	}
	return c, c.validate()
}

func (c *Config) validate() error {
	db, err := catalog.ParseDatabaseURL(c.DatabaseURL)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	c.db = db
	if _, _, err := net.SplitHostPort(c.HTTPAddr); err != nil {
		return fmt.Errorf("%w: HTTP_ADDR %q must be host:port, such as 127.0.0.1:8080", errUsage, c.HTTPAddr)
	}
	switch c.SearchBackend {
	case "embedded":
	case "weaviate":
		if c.WeaviateURL == "" {
			return fmt.Errorf("%w: SEARCH_BACKEND=weaviate needs WEAVIATE_URL", errUsage)
		}
	default:
		return fmt.Errorf("%w: SEARCH_BACKEND must be embedded or weaviate (got %q)", errUsage, c.SearchBackend)
	}
	if c.Embeddings != "local" && c.Embeddings != "openai" {
		return fmt.Errorf("%w: EMBEDDINGS must be local or openai (got %q)", errUsage, c.Embeddings)
	}
	if c.TelegramWebhookURL != "" && !strings.HasPrefix(c.TelegramWebhookURL, "https://") {
		return fmt.Errorf("%w: TELEGRAM_WEBHOOK_URL must be an https:// URL", errUsage)
	}
	return nil
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
	status := func(token, env string) string {
		if token == "" {
			return "off (" + env + " unset)"
		}
		return "off (credentials set, but this build has no adapter for it yet)"
	}
	return [][2]string{
		{"telegram", status(c.TelegramBotToken, "TELEGRAM_BOT_TOKEN")},
		{"slack", status(c.SlackBotToken, "SLACK_BOT_TOKEN")},
	}
}
