package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/demo"
	"shopbot/catalog/sandbox"
	"shopbot/engine"
	"shopbot/engine/eval"
	"shopbot/engine/llm"
	"shopbot/migrations"
)

// errScenariosFailed makes eval exit 1 after its report.
var errScenariosFailed = errors.New("scenarios failed")

// evalRateLimit lifts the rate limit in the sandbox: a scenario is one
// shopper talking fast.
const evalRateLimit = 1 << 30

// evalCmd runs a scenario file against the shop in a sandbox: each
// scenario a new shopper in a throwaway copy of the catalog, through the
// real engine with the current configuration. Nothing is written to the
// shop's database, its search index or its metrics.
func evalCmd(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	path := fs.String("scenarios", "", "YAML scenario file (see engine/eval/testdata/example.yaml)")
	parallel := fs.Int("parallel", 4, "scenarios run at once")
	verbose := fs.Bool("verbose", false, "also print the transcript of each failure")
	asJSON := fs.Bool("json", false, "write the report as JSON")
	modelFlag := fs.String("model", "", "offline: answer with the offline planner even when a model is configured")
	demoShop := fs.Bool("demo", false, "run against the built-in demo catalog instead of DATABASE_URL's shop")
	cfg, err := loadConfig(fs, args, e.getenv)
	if err != nil {
		return err
	}
	switch {
	case *path == "":
		return usagef("eval needs --scenarios FILE")
	case *parallel < 1 || *parallel > 64:
		return usagef("--parallel must be 1 to 64")
	case *modelFlag != "" && *modelFlag != "offline":
		return usagef("--model takes only offline (the configured model is OPENAI_MODEL)")
	}
	scs, err := readScenarios(*path)
	if err != nil {
		return err
	}
	log := e.logger(slog.LevelWarn)
	dir, err := os.MkdirTemp("", "shopbot-eval-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	tmpl, err := evalTemplate(ctx, &cfg, dir, *demoShop)
	if err != nil {
		return err
	}
	search, err := sandboxSearch(ctx, &cfg, tmpl, log)
	if err != nil {
		return err
	}
	var model llm.Model
	if *modelFlag != "offline" {
		model = newModel(&cfg, log)
	}
	r := &eval.Runner{Template: tmpl, Parallel: *parallel,
		NewEngine: func(db *bun.DB) (eval.Handler, error) { return sandboxEngine(&cfg, db, search, model, log) }}
	rep, err := r.Run(ctx, scs)
	if err != nil {
		return err
	}
	if *asJSON {
		err = rep.WriteJSON(e.stdout, *verbose)
	} else {
		err = rep.Write(e.stdout, *verbose)
	}
	if err != nil {
		return err
	}
	if rep.Passed < rep.Total {
		return fmt.Errorf("%d of %d %w", rep.Total-rep.Passed, rep.Total, errScenariosFailed)
	}
	return nil
}

// readScenarios parses the whole file before anything runs; a bad file
// is a usage error (exit 2) listing FILE:LINE: what is wrong.
func readScenarios(path string) ([]eval.Scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usagef("%v", err)
	}
	defer f.Close()
	scs, err := eval.Parse(f, path)
	if ferr := (*eval.FileError)(nil); errors.As(err, &ferr) {
		return nil, usagef("%v", ferr)
	}
	return scs, err
}

// evalTemplate clones the shop (or the demo catalog) into dir. The shop's
// database is only read: not migrated, not seeded.
func evalTemplate(ctx context.Context, cfg *Config, dir string, demoShop bool) (*sandbox.Template, error) {
	url := cfg.DatabaseURL
	if demoShop {
		url = "sqlite:" + filepath.Join(dir, "demo.db")
	}
	info, err := catalog.ParseDatabaseURL(url)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(info.Location); info.Kind == "sqlite" && !demoShop && err != nil {
		// Opening it would create an empty database file.
		return nil, usagef("%s: no shop there (%v); run shopbot eval --demo for the demo catalog", info, err)
	}
	db, _, err := catalog.OpenDB(url)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if demoShop {
		if _, _, err := migrations.Migrate(ctx, db); err != nil {
			return nil, err
		}
		if _, err := demo.Seed(ctx, db); err != nil {
			return nil, err
		}
	}
	st, err := migrations.Check(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", info, err)
	}
	if st.Current == 0 {
		return nil, usagef("%s holds no shop yet: run shopbot migrate (or shopbot serve), or eval --demo", info)
	}
	tmpl, err := sandbox.Clone(ctx, db, dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", info, err)
	}
	return tmpl, nil
}

// sandboxSearch builds the configured search backend over the template's
// catalog, which holds the shop's product ids. It is only read: no
// follower, no change-feed worker, and Weaviate's collection is searched as it
// is, never filled. Its metrics go to a registry of its own.
func sandboxSearch(ctx context.Context, cfg *Config, tmpl *sandbox.Template, log *slog.Logger) (*searchBackend, error) {
	s, err := newSearch(cfg, log, prometheus.NewRegistry())
	if err != nil {
		return nil, err
	}
	cp, err := tmpl.Open(ctx)
	if err != nil {
		return nil, err
	}
	defer cp.Close()
	if err := s.index.Rebuild(ctx, catalog.NewSearchSource(cp.DB)); err != nil {
		return nil, fmt.Errorf("build search index: %w", err)
	}
	if err := s.pageIndex.Rebuild(ctx, catalog.NewSearchSource(cp.DB)); err != nil {
		return nil, fmt.Errorf("build page index: %w", err)
	}
	return s, nil
}

// sandboxEngine is the engine of one sandbox copy: the current
// configuration and the merchant's settings (copied with the catalog),
// without rate limits, chat locks or notices, with metrics of its own.
func sandboxEngine(cfg *Config, db *bun.DB, search *searchBackend, model llm.Model, log *slog.Logger) (*engine.Engine, error) {
	settings := shopSettings(cfg, db)
	return engine.New(engine.Config{
		DB: db, Search: search, Pages: search.pages, Model: model,
		ShopName: cfg.ShopName, Currency: cfg.ShopCurrency,
		MaxRounds: cfg.engine.maxRounds, DailyTokens: cfg.engine.dailyTokens,
		ReturnWindow: returnWindow(cfg.engine.returnDays),
		RateLimit:    evalRateLimit, RateWindow: cfg.engine.rateWindow,
		Settings: func(ctx context.Context) (catalog.Settings, error) {
			s, err := settings.Get(ctx)
			s.RateLimit, s.RateWindow = 0, 0
			return s, err
		},
		Logger: log, Registry: prometheus.NewRegistry(),
	})
}
