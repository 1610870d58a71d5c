package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"shopbot/catalog/demo"
)

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
