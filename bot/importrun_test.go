package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"shopbot/catalog"
	"shopbot/migrations"
)

// importShop is a migrated database with one product to review.
func importShop(t *testing.T) string {
	t.Helper()
	dbURL := "sqlite:" + filepath.Join(t.TempDir(), "shop.db")
	db, _, err := catalog.OpenDB(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, _, err := migrations.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	in := catalog.ProductInput{SKU: "JKT-1", Title: "Jacket", CategoryPath: []string{"Home"}, Price: 1000, Currency: "USD", Stock: 3}
	if err := in.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{in}); err != nil {
		t.Fatal(err)
	}
	return dbURL
}

// lastJob is the newest import job of the database.
func lastJob(t *testing.T, dbURL string) catalog.ImportJob {
	t.Helper()
	db, _, err := catalog.OpenDB(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	jobs, err := catalog.ListImportJobs(context.Background(), db, 1)
	if err != nil || len(jobs) != 1 {
		t.Fatalf("jobs %+v, %v", jobs, err)
	}
	return jobs[0]
}

// TestImportCommandsShareTheRunner: import-reviews and import-pages run
// like import — a job of their kind the panel lists, each failed row on
// stderr after the path, the summary on stdout, a non-zero exit when a
// row failed — and a missing file or directory is a usage error that
// changes nothing. (The parsing is tested in catalog/importer.)
func TestImportCommandsShareTheRunner(t *testing.T) {
	dbURL := importShop(t)
	dir := t.TempDir()
	reviews := filepath.Join(dir, "reviews.csv")
	pages := filepath.Join(dir, "pages")
	for path, data := range map[string]string{
		reviews:                             "sku,rating,author,title,body,created_at\nJKT-1,5,Ann,,Warm.,2026-03-01\nNOPE,4,Bo,,Fine.,2026-03-01\n",
		filepath.Join(pages, "returns.md"):  "# Returns\n\nThirty days.\n",
		filepath.Join(pages, "untitled.md"): "## Only a subheading\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		cmd, path, kind string
		failed          error
		stderr          string
	}{
		{"import-reviews", reviews, catalog.ImportReviews, errReviewsFailed, reviews + ": line 3 (sku NOPE): unknown sku \"NOPE\"\n"},
		{"import-pages", pages, catalog.ImportPages, errPagesFailed, pages + ": untitled.md: invalid input: no title: the file needs a line starting with \"# \"\n"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), []string{tc.cmd, "--database-url", dbURL, tc.path}, envFunc(nil), nil, &stdout, &stderr)
		if !errors.Is(err, tc.failed) || exitCode(err) != 1 || stdout.String() != "imported 1, updated 0, failed 1\n" || stderr.String() != tc.stderr {
			t.Errorf("%s: err %v, stdout %q, stderr %q", tc.cmd, err, stdout.String(), stderr.String())
		}
		if j := lastJob(t, dbURL); j.Kind != tc.kind || j.StartedBy != "shopbot "+tc.cmd || j.Status != catalog.ImportDone || j.Imported != 1 || j.Failed != 1 {
			t.Errorf("%s: job %+v", tc.cmd, j)
		}
		before := lastJob(t, dbURL).ID
		err = run(context.Background(), []string{tc.cmd, "--database-url", dbURL, filepath.Join(dir, "missing")}, envFunc(nil), nil, &stdout, &stderr)
		if exitCode(err) != 2 || lastJob(t, dbURL).ID != before {
			t.Errorf("%s of a missing path: %v (exit %d)", tc.cmd, err, exitCode(err))
		}
	}
}
