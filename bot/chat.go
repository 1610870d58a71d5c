package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/term"

	"shopbot/adapters/console"
	"shopbot/catalog"
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
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops the index following the catalog
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	db, info, err := catalog.OpenDB(cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := prepare(ctx, db); err != nil {
		return fmt.Errorf("prepare %s: %w", info, err)
	}
	srch, err := newSearch(&cfg, log)
	if err != nil {
		return err
	}
	if err := srch.load(ctx, db, log); err != nil {
		return err
	}
	eng, err := newEngine(&cfg, db, srch, prometheus.NewRegistry(), log)
	if err != nil {
		return err
	}
	interactive := isTerminal(e.stdin) && isTerminal(e.stdout)
	if interactive {
		fmt.Fprintf(e.stdout, "Shopbot chat · %s · model: %s\nType a message, /quit to leave.\n", info, cfg.modelStatus())
	}
	return console.Run(ctx, eng, e.stdin, e.stdout, console.Options{Interactive: interactive, User: *user, Locale: *locale})
}

func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
