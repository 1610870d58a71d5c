package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"shopbot/catalog"
)

// TestImportCommandBoundsErrors: 5,000 bad rows (one with a 1 MiB cell)
// print the first 1,000 errors, each short, and one line counting the
// other 4,000; the run is recorded as an import job the panel lists.
func TestImportCommandBoundsErrors(t *testing.T) {
	dir := t.TempDir()
	dbURL := "sqlite:" + filepath.Join(dir, "shop.db")
	var file bytes.Buffer
	file.WriteString("sku,title,price,stock\n")
	for i := range 5000 {
		cell := "a few"
		if i == 3 {
			cell = strings.Repeat("x", 1<<20)
		}
		fmt.Fprintf(&file, "BAD-%d,Bad,1.00,%s\n", i, cell)
	}
	csvPath := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(csvPath, file.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"import", "--database-url", dbURL, csvPath}, envFunc(nil), nil, &stdout, &stderr)
	if !errors.Is(err, errRowsFailed) {
		t.Fatalf("err = %v, want errRowsFailed", err)
	}
	lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	if len(lines) != 1001 || !strings.Contains(lines[0], "line 2 (sku BAD-0)") ||
		lines[1000] != csvPath+": … and 4000 more errors (only the first 1000 are listed)" {
		t.Fatalf("%d stderr lines, first %q, last %q", len(lines), lines[0], lines[len(lines)-1])
	}
	if stderr.Len() > 300_000 {
		t.Errorf("stderr is %d bytes", stderr.Len())
	}
	if !strings.Contains(stdout.String(), "imported 0, updated 0, failed 5000") {
		t.Errorf("stdout %q", stdout.String())
	}
	db, _, err := catalog.OpenDB(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	jobs, err := catalog.ListImportJobs(context.Background(), db, 5)
	if err != nil || len(jobs) != 1 || jobs[0].Status != catalog.ImportDone || jobs[0].Failed != 5000 || jobs[0].StartedBy != "shopbot import" || jobs[0].Kind != catalog.ImportProducts {
		t.Fatalf("jobs = %+v, %v", jobs, err)
	}
}
