package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"time"

	"shopbot/catalog"
	"shopbot/migrations"
)

// customerCmd is `shopbot customer export|forget ID`: one customer's data
// as JSON on stdout, or its erasure (catalog.ExportCustomer,
// catalog.ForgetCustomer), as the admin's customer page does.
func customerCmd(ctx context.Context, e env, args []string) error {
	const usage = "usage: shopbot customer export|forget [flags] ID"
	fs := flag.NewFlagSet("customer", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	if len(args) == 0 {
		return usagef(usage)
	}
	verb := args[0]
	if verb != "export" && verb != "forget" {
		if isHelpFlag(verb) {
			verb = "export"
		} else {
			return usagef("%s (not %q)", usage, verb)
		}
	} else {
		args = args[1:]
	}
	cfg, err := loadConfig(fs, args, e.getenv)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef(usage)
	}
	id, err := strconv.ParseInt(fs.Arg(0), 10, 64)
	if err != nil || id <= 0 {
		return usagef("the customer ID must be a positive number, not %q", fs.Arg(0))
	}
	db, info, err := catalog.OpenDB(cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, _, err := migrations.Migrate(ctx, db); err != nil {
		return fmt.Errorf("migrate %s: %w", info, err)
	}
	if verb == "export" {
		x, err := catalog.ExportCustomer(ctx, db, id, time.Now())
		if errors.Is(err, catalog.ErrNotFound) {
			return fmt.Errorf("there is no customer %d", id)
		}
		if err != nil {
			return err
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(x)
	}
	er, err := catalog.ForgetCustomer(ctx, db, id)
	if errors.Is(err, catalog.ErrNotFound) {
		return fmt.Errorf("there is no customer %d", id)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Forgot customer %d: %d conversations deleted, %d orders kept with their personal fields cleared.\n", id, er.Conversations, er.Orders)
	return nil
}
