package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"

	"shopbot/catalog/search/eval"
)

// errBadJudgments makes search-eval exit non-zero after reporting bad
// lines of the judgments file.
var errBadJudgments = errors.New("the judgments file has bad lines")

// searchEvalCmd measures the configured search on a judgments file.
func searchEvalCmd(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("search-eval", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	path := fs.String("judgments", "", "JSONL judgments file (see catalog/search/eval/testdata/demo_judgments.jsonl)")
	verbose := fs.Bool("verbose", false, "also list the worst queries")
	cfg, err := loadConfig(fs, args, e.getenv)
	if err != nil {
		return err
	}
	if *path == "" {
		return usagef("search-eval needs --judgments FILE")
	}
	f, err := os.Open(*path)
	if err != nil {
		return err
	}
	defer f.Close()
	js, bad := eval.Read(f)
	for _, b := range bad {
		fmt.Fprintf(e.stderr, "%s: %v\n", *path, b)
	}

	log := e.logger(slog.LevelWarn)
	sh, err := openShop(ctx, &cfg, log)
	if err != nil {
		return err
	}
	defer sh.close()
	rep, err := eval.Run(ctx, sh.search.configured(), js, cfg.ShopCurrency)
	if err != nil {
		return err
	}
	rep.Write(e.stdout, *verbose)
	if len(bad) > 0 {
		return fmt.Errorf("%s: %d bad lines: %w", *path, len(bad), errBadJudgments)
	}
	return nil
}
