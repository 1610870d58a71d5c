package main

import (
	"context"
	"flag"
	"fmt"

	"shopbot/catalog"
	"shopbot/migrations"
)

// migrateCmd applies pending migrations and reports the schema version.
func migrateCmd(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	cfg, err := loadConfig(fs, args, e.getenv)
	if err != nil {
		return err
	}
	db, info, err := catalog.OpenDB(cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	from, to, err := migrations.Migrate(ctx, db)
	if err != nil {
		return fmt.Errorf("migrate %s: %w", info, err)
	}
	if from.Current == to.Current {
		fmt.Fprintf(e.stdout, "%s: schema already at version %d\n", info, to.Current)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s: schema migrated from version %d to %d\n", info, from.Current, to.Current)
	return nil
}
