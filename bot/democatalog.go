package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/demo"
	"shopbot/migrations"
)

// demoCmd is `shopbot demo remove`: delete the demo shop's data for good
// (catalog.RemoveDemo), as the panel's banner does.
func demoCmd(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	if len(args) > 0 && args[0] == "remove" {
		args = args[1:]
	} else if len(args) == 0 || !isHelpFlag(args[0]) {
		return usagef("usage: shopbot demo remove [flags]")
	}
	cfg, err := loadConfig(fs, args, e.getenv)
	if err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("demo remove takes no arguments")
	}
	db, info, err := catalog.OpenDB(cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, _, err := migrations.Migrate(ctx, db); err != nil {
		return fmt.Errorf("migrate %s: %w", info, err)
	}
	if err := demo.Adopt(ctx, db); err != nil { // a demo loaded by an older shopbot
		return err
	}
	r, err := catalog.RemoveDemo(ctx, db, time.Now())
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, demoRemovalSummary(r))
	return nil
}

// demoRemovalSummary says what a removal did.
func demoRemovalSummary(r catalog.DemoRemoval) string {
	if !r.Changed() {
		return "Nothing to remove: the shop has no demo data. The demo will not be loaded again."
	}
	return fmt.Sprintf("Removed the demo shop: %d listings, %d reviews, %d pages, %d delivery methods, %d promo codes; "+
		"%d listings on orders were archived instead. The demo will not be loaded again.",
		r.Listings, r.Reviews, r.Pages, r.Deliveries, r.Promos, r.Archived)
}

// demoCatalogCmd writes a synthetic catalog in the import JSONL format.
func demoCatalogCmd(_ context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("demo-catalog", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	size := fs.Int("size", 10000, "number of products")
	seed := fs.Int64("seed", 1, "random seed; the same seed writes the same file")
	out := fs.String("o", "-", "output file, - for standard output")
	describe(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *size < 1 || *size > 10_000_000 {
		return usagef("--size must be between 1 and 10000000")
	}
	w := e.stdout
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	if err := demo.WriteSynthetic(w, *size, *seed); err != nil {
		return err
	}
	if *out != "-" {
		fmt.Fprintf(e.stderr, "wrote %d products to %s\n", *size, *out)
	}
	return nil
}
