package main

// The command table: what `shopbot help` lists, what run dispatches, and
// the header of each command's -h.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// command is one shopbot subcommand.
type command struct {
	name    string
	args    string // after the name in the usage line
	summary string // one line
	run     func(ctx context.Context, e env, args []string) error
	hidden  bool // internal: not in the help
}

// commands is every subcommand, in the order the help lists them.
func commands() []command {
	return []command{
		{"serve", "[flags]", "migrate, load the demo catalog into an empty database, serve HTTP and every configured channel (the default)", serve, false},
		{"chat", "[flags]", "talk to the bot in the terminal (one reply block per input line when piped)", chatCmd, false},
		{"migrate", "[flags]", "apply database migrations and exit", migrateCmd, false},
		{"import", "[--dry-run] [flags] FILE", "upsert products by SKU from Shopbot CSV or JSONL, a Shopify or WooCommerce export, or a Google Merchant Center feed", importCmd, false},
		{"import-pages", "[flags] DIR", "create or update shop pages from DIR/*.md (file name = slug, first '# ' line = title)", importPagesCmd, false},
		{"import-reviews", "[flags] FILE", "add or update reviews from CSV or JSONL (sku, rating 1–5, author, title, body, created_at)", importReviewsCmd, false},
		{"reindex", "[flags]", "rebuild the SEARCH_BACKEND index (Weaviate) from the database", reindexCmd, false},
		{"demo", "remove [flags]", "delete the demo shop's listings, reviews, pages, delivery methods and promo codes (those on orders are archived); it is not loaded again", demoCmd, false},
		{"customer", "export|forget [flags] ID", "print one customer's data as JSON, or erase it (orders are kept with the personal fields cleared)", customerCmd, false},
		{"demo-catalog", "[--size N] [--seed N] [-o FILE]", "write a synthetic catalog (JSONL) for scale tests", demoCatalogCmd, false},
		{"search-eval", "--judgments FILE [flags]", "relevance and latency of the configured search", searchEvalCmd, false},
		{"eval", "--scenarios FILE [flags]", "run conversation scenarios in a sandbox (nothing in the shop changes)", evalCmd, false},
		{"replay", "[--since 24h | --conversation ID...] [flags]", "replay stored shopper turns in a sandbox and list those that changed", replayCmd, false},
		{"bench", "[flags]", "load-test the engine with a built-in scripted model", benchCmd, false},
		{"bench-model", "[flags]", "the scripted model of bench --model-process", benchModelCmd, true},
		{"healthcheck", "[--ready]", "exit 0 if the server on HTTP_ADDR is healthy (ready)", healthcheckCmd, false},
		{"settings", "[--markdown]", "list every setting shopbot reads from the environment, with defaults", func(_ context.Context, e env, args []string) error { return settingsCmd(e, args) }, false},
		{"version", "", "print the version", versionCmd, false},
		{"help", "[COMMAND]", "show this help, or a command's flags and settings", helpCmd, false},
	}
}

func findCommand(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func isCommand(name string) bool {
	_, ok := findCommand(name)
	return ok
}

// isHelpFlag: shopbot -h, -help, --help.
func isHelpFlag(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help"
}

// printUsage is `shopbot help`: one line per command.
func printUsage(w io.Writer) {
	fmt.Fprintln(w, "Shopbot — an AI shopping assistant for Telegram, Slack and the web.")
	fmt.Fprintln(w, "\nUsage: shopbot [COMMAND] [flags] [arguments]   (no command: serve)")
	fmt.Fprintln(w, "\nCommands:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range commands() {
		if !c.hidden {
			fmt.Fprintf(tw, "  %s\t%s\n", c.name, c.summary)
		}
	}
	tw.Flush()
	fmt.Fprintln(w, "\nRun 'shopbot COMMAND -h' for a command's flags and the environment settings it reads;")
	fmt.Fprintln(w, "'shopbot settings' lists them all. Flags override the environment.")
}

// describe makes fs's -h print the command's usage line and summary, its
// flags, and the environment settings it reads.
func describe(fs *flag.FlagSet) {
	fs.Usage = func() {
		w := fs.Output()
		c, _ := findCommand(fs.Name())
		fmt.Fprintf(w, "Usage: shopbot %s %s\n%s\n", c.name, c.args, capitalize(c.summary)+".")
		if hasFlags(fs) {
			fmt.Fprintln(w, "\nFlags:")
			fs.PrintDefaults()
		}
		printEnvHelp(w, fs.Name())
	}
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// helpCmd is `shopbot help [COMMAND]`.
func helpCmd(ctx context.Context, e env, args []string) error {
	if len(args) == 0 || isHelpFlag(args[0]) {
		printUsage(e.stdout)
		return nil
	}
	c, ok := findCommand(args[0])
	if !ok || c.name == "help" {
		return usagef("unknown command %q; run 'shopbot help'", args[0])
	}
	return c.run(ctx, env{getenv: e.getenv, stdin: e.stdin, stdout: e.stdout, stderr: e.stdout}, []string{"-h"})
}

// versionCmd is `shopbot version`.
func versionCmd(_ context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	describe(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, "shopbot "+buildVersion())
	return nil
}
