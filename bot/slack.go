package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/adapters"
	slackad "shopbot/adapters/slack"
	"shopbot/engine"
)

// slackApp is the Slack adapter; its zero value (Slack not configured)
// does nothing.
type slackApp struct {
	ad     *slackad.Adapter
	socket bool
}

// newSlack builds the Slack adapter when SLACK_BOT_TOKEN is set and
// registers its notifiers with the hub: the orders channel hears of
// every channel's orders and handoffs, Slack shoppers of their orders'
// status and merchant replies.
// received hears of each request (the channel board's receiver).
func newSlack(ctx context.Context, cfg *Config, db *bun.DB, eng *engine.Engine, hub *adapters.Hub, reg prometheus.Registerer, log *slog.Logger, received func(time.Time)) (*slackApp, error) {
	if cfg.SlackBotToken == "" {
		return &slackApp{}, nil
	}
	ad, err := slackad.New(ctx, slackad.Config{
		BotToken: cfg.SlackBotToken, SigningSecret: cfg.SlackSigningSecret, AppToken: cfg.SlackAppToken,
		APIURL: cfg.SlackAPIURL, OrdersChannel: cfg.SlackOrdersChannel, AdminURL: adminURL(cfg),
		DB: db, Engine: eng, Shop: eng, Logger: log.With("adapter", "slack"), Registry: reg,
		Received: received,
	})
	if err != nil {
		return nil, err
	}
	if m := ad.Merchants(); m != nil {
		hub.Merchants(m)
	}
	hub.Shoppers("slack", ad.Shoppers())
	return &slackApp{ad: ad, socket: cfg.SlackAppToken != ""}, nil
}

// endpoints are the Events API handlers (nil in Socket Mode or without
// Slack).
func (s *slackApp) endpoints() *slackEndpoints {
	if s.ad == nil || s.socket {
		return nil
	}
	var e slackEndpoints
	e.events, e.interactions, e.commands = s.ad.Endpoints()
	return &e
}

// resume queues the Slack requests acknowledged but not handled before
// the last stop; it runs before the endpoints open, so a thread's resumed
// turns come before its new ones. A failure leaves them for the next start.
func (s *slackApp) resume(ctx context.Context, log *slog.Logger) {
	if s.ad == nil {
		return
	}
	if err := s.ad.Resume(ctx); err != nil {
		log.ErrorContext(ctx, "slack requests not resumed", "err", err)
	}
}

// start learns the bot's user id (auth.test; the channel board reports a
// refused token) and runs Socket Mode, when configured, until ctx ends;
// Socket Mode giving up is shown stopped on board.
func (s *slackApp) start(ctx context.Context, log *slog.Logger, board *channelBoard) {
	if s.ad == nil {
		return
	}
	go func() {
		if err := s.ad.Check(ctx); err != nil {
			log.WarnContext(ctx, "slack bot token not accepted", "err", err)
		}
	}()
	if !s.socket {
		return
	}
	go func() {
		err := s.ad.RunSocketMode(ctx) // returns only with an error
		if ctx.Err() == nil {
			log.ErrorContext(ctx, "slack socket mode stopped", "err", err)
			board.stopped("slack", "Socket Mode stopped: "+explainSlack(err)+"; restart shopbot once it is fixed")
		}
	}()
}

// wait lets accepted Slack work finish during shutdown.
func (s *slackApp) wait() {
	if s.ad != nil {
		s.ad.Wait()
	}
}

// slackProbe is how the channel board checks Slack: auth.test.
func slackProbe(c *Config, s *slackApp) channelProbe {
	p := channelProbe{name: "slack", mode: c.slackMode(), explain: explainSlack}
	switch {
	case c.SlackBotToken == "":
		p.off = "SLACK_BOT_TOKEN unset"
	case s.ad != nil:
		p.check = func(ctx context.Context) (string, error) {
			id, err := s.ad.Identify(ctx)
			return "workspace " + id.Workspace + ", bot @" + id.Bot, err
		}
	}
	return p
}

// explainSlack is a failed check in a sentence.
func explainSlack(err error) string {
	var refused *slackad.TokenRefusedError
	switch {
	case errors.As(err, &refused):
		return "the bot token was refused by Slack (" + refused.Code + ") — check SLACK_BOT_TOKEN"
	case errors.Is(err, context.DeadlineExceeded):
		return "Slack did not answer in time (auth.test) — check the network or SLACK_API_URL; checked again every " + statusEvery.String()
	}
	return "Slack could not be reached (" + err.Error() + ") — checked again every " + statusEvery.String()
}

// slackMode says how the Slack adapter runs.
func (c *Config) slackMode() string {
	mode := "POST /slack/events, /slack/interactions, /slack/commands"
	if c.SlackAppToken != "" {
		mode = "Socket Mode"
	}
	if c.SlackOrdersChannel != "" {
		mode += ", orders to " + c.SlackOrdersChannel
	}
	return mode
}

// adminURL is the admin panel's base URL for links in Slack messages:
// PUBLIC_URL, else the listen address (reachable on this machine only).
func adminURL(cfg *Config) string {
	if cfg.PublicURL != "" {
		return cfg.PublicURL
	}
	host, port, err := net.SplitHostPort(cfg.HTTPAddr)
	if err != nil {
		return ""
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
