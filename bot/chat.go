package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/term"

	"shopbot/adapters"
	"shopbot/adapters/console"
)

// chatCmd talks to the bot in the terminal: interactive on a terminal,
// one reply block per input line otherwise (scriptable).
func chatCmd(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("chat", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	user := fs.String("user", "terminal", "who you are to the shop (a customer per name)")
	locale := fs.String("locale", "", "language hint, e.g. ru")
	cfg, err := loadConfig(fs, args, e.getenv)
	if err != nil {
		return err
	}
	log := e.logger(slog.LevelWarn)
	sh, err := openShop(ctx, &cfg, log)
	if err != nil {
		return err
	}
	defer sh.close()
	// Notices the engine sends this shopper (e.g. a handoff reply) are
	// printed between turns. Back-in-stock alerts are delivered by the
	// server's worker, not by a terminal session.
	notices := console.NewNotices(*user)
	hub := adapters.NewHub()
	hub.Shoppers("console", notices)
	eng, closeEngine, err := newEngine(&cfg, sh.db, sh.search, prometheus.NewRegistry(), log, hub, nil, nil)
	if err != nil {
		return err
	}
	defer closeEngine()
	interactive := isTerminal(e.stdin) && isTerminal(e.stdout)
	if interactive {
		fmt.Fprintf(e.stdout, "Shopbot chat · %s · model: %s\nType a message, /quit to leave.\n", sh.info, cfg.modelStatus())
	}
	return console.Run(ctx, eng, e.stdin, e.stdout, console.Options{Interactive: interactive, User: *user, Locale: *locale, Notices: notices})
}

func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
