package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "shopbot: "+err.Error())
	}
	os.Exit(exitCode(err))
}

func exitCode(err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(*usageError)):
		return 2
	}
	return 1
}

// env is the process environment as run sees it.
type env struct {
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	log    *slog.Logger // built once by run (logger.go)
	level  *slog.LevelVar
}

// run executes one shopbot command. It is main without the process: tests
// call it with their own arguments, environment and streams.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	log, level := newLogger(stderr)
	e := env{getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr, log: log, level: level}
	cmd, rest := "serve", args
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, rest = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(ctx, e, rest)
	case "search-eval":
		return searchEvalCmd(ctx, e, rest)
	case "eval":
		return evalCmd(ctx, e, rest)
	case "replay":
		return replayCmd(ctx, e, rest)
	case "bench":
		return benchCmd(ctx, e, rest)
	case "bench-model": // the child of bench --model-process; not in the help
		return benchModelCmd(ctx, e, rest)
	case "chat":
		return chatCmd(ctx, e, rest)
	case "migrate":
		return migrateCmd(ctx, e, rest)
	case "import":
		return importCmd(ctx, e, rest)
	case "import-pages":
		return importPagesCmd(ctx, e, rest)
	case "import-reviews":
		return importReviewsCmd(ctx, e, rest)
	case "reindex":
		return reindexCmd(ctx, e, rest)
	case "demo-catalog":
		return demoCatalogCmd(ctx, e, rest)
	case "demo":
		return demoCmd(ctx, e, rest)
	case "healthcheck":
		return healthcheckCmd(ctx, e, rest)
	case "help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return usagef("unknown command %q; run 'shopbot help'", cmd)
}

const usage = `Shopbot — an AI shopping assistant for Telegram, Slack and the web.

Usage:
  shopbot [serve] [flags]        migrate, load the demo catalog into an empty database, serve HTTP
  shopbot chat [flags]           talk to the bot in the terminal (one reply block per line when piped)
  shopbot migrate [flags]        apply database migrations and exit
  shopbot import [flags] FILE    upsert products from CSV or JSONL by SKU
  shopbot import-pages DIR       create or update shop pages from DIR/*.md by slug (file name)
  shopbot import-reviews FILE    add or update reviews from CSV or JSONL (sku, rating, author, title, body, created_at)
  shopbot reindex [flags]        rebuild the configured search backend (Weaviate) from the database
  shopbot demo remove            delete the demo shop's listings, reviews, pages and delivery methods
                                 (those on orders are archived); it is not loaded again
  shopbot demo-catalog --size N  write a synthetic catalog (JSONL) for scale tests
  shopbot search-eval --judgments FILE [--verbose]
                                 relevance and latency of the configured search
  shopbot eval --scenarios FILE [--parallel N] [--model offline] [--demo] [--verbose] [--json]
                                 run conversation scenarios in a sandbox (nothing in the shop changes)
  shopbot replay [--since 24h | --conversation ID...] [--limit N] [--parallel N] [--model offline] [--json]
                                 replay stored shopper turns in a sandbox and list those that changed
  shopbot bench [flags]          load-test the engine with a built-in scripted model
  shopbot healthcheck [--ready]  exit 0 if the server on HTTP_ADDR is healthy (ready)
  shopbot help                   show this help

Run 'shopbot COMMAND -h' for a command's flags. Settings come from the
environment (DATABASE_URL, HTTP_ADDR, OPENAI_API_KEY, …; see README.md);
flags override them.
`
