package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/migrations"
)

// reviewsShop is a database with two products to review.
func reviewsShop(t *testing.T) string {
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
	var ins []catalog.ProductInput
	for _, sku := range []string{"JKT-1", "LMP-2"} {
		in := catalog.ProductInput{SKU: sku, Title: "Product " + sku, Brand: "Acme", CategoryPath: []string{"Home"},
			Price: 1000, Currency: "USD", Stock: 3}
		if err := in.Validate(); err != nil {
			t.Fatal(err)
		}
		ins = append(ins, in)
	}
	if _, err := catalog.UpsertProducts(ctx, db, ins); err != nil {
		t.Fatal(err)
	}
	return dbURL
}

func importReviewsFile(t *testing.T, dbURL, path string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"import-reviews", "--database-url", dbURL, path}, envFunc(nil), nil, &stdout, &stderr)
	return stdout.String(), stderr.String(), err
}

// TestImportReviewsCSV: good rows are stored with their passages and fold
// into the rating; bad rows are listed by line and reason and change
// nothing; the same file again changes nothing; an edited row updates.
func TestImportReviewsCSV(t *testing.T) {
	dbURL := reviewsShop(t)
	path := filepath.Join(t.TempDir(), "reviews.csv")
	good := "sku,rating,author,title,body,created_at\n" +
		"JKT-1,2,Ann,Zip broke,\"The zipper broke\nafter a week.\",2026-03-01\n" +
		"JKT-1,5,Bo,,Warm and light.,2026-03-02T10:00:00Z\n"
	bad := "NOPE,4,Cy,,Fine.,2026-03-01\n" + // line 5
		"JKT-1,7,Di,,Fine.,2026-03-01\n" +
		"JKT-1,4,Ed,,Fine.,yesterday\n" +
		"JKT-1,4,Fay,,,2026-03-01\n" +
		"JKT-1,4,Gus,,Bad \xff text,2026-03-01\n" +
		"JKT-1,4,Hal,," + strings.Repeat("x", catalog.MaxReviewBody+1) + ",2026-03-01\n"
	if err := os.WriteFile(path, []byte(good+bad), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := importReviewsFile(t, dbURL, path)
	if !errors.Is(err, errReviewsFailed) || out != "imported 2, updated 0, failed 6\n" {
		t.Fatalf("first run: %q, err %v\n%s", out, err, errOut)
	}
	for _, want := range []string{"line 5: unknown sku", "line 6: rating 7 is not 1–5", "line 7: created_at \"yesterday\"",
		"line 8: empty body", "line 9: text is not valid UTF-8", "line 10: the body has 4001 characters"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if err := os.WriteFile(path, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errOut, err := importReviewsFile(t, dbURL, path); err != nil || out != "imported 0, updated 0, failed 0\n" {
		t.Fatalf("re-import: %q, %q, %v", out, errOut, err)
	}
	edited := strings.Replace(good, "Warm and light.", "\"Warm, light, and the hood stays up.\"", 1)
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errOut, err := importReviewsFile(t, dbURL, path); err != nil || out != "imported 0, updated 1, failed 0\n" {
		t.Fatalf("edited: %q, %q, %v", out, errOut, err)
	}

	db, _, err := catalog.OpenDB(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	p, err := catalog.GetProduct(ctx, db, "JKT-1")
	if err != nil || p.RatingCount != 2 || p.RatingAvg != 3.5 {
		t.Fatalf("rating %+v, %v", p, err)
	}
	rs, _ := catalog.ListReviews(ctx, db, p.ID, 10)
	if len(rs) != 2 || rs[1].Body != "The zipper broke\nafter a week." || rs[0].Body != "Warm, light, and the hood stays up." {
		t.Fatalf("reviews %+v", rs)
	}
	if n, _ := catalog.CountPassages(ctx, db); n != 2 {
		t.Fatalf("%d passages, want 2", n)
	}
}

// TestImportReviewsJSONL: JSONL by content (no extension), rating as a
// number or a string, bad lines by number.
func TestImportReviewsJSONL(t *testing.T) {
	dbURL := reviewsShop(t)
	path := filepath.Join(t.TempDir(), "reviews")
	data := `{"sku":"LMP-2","rating":4,"author":"Ann","title":"Bright","body":"Bright enough to read by.","created_at":"2026-01-05T08:00:00Z"}` + "\n" +
		"\n" +
		`{"sku":"LMP-2","rating":"1","author":"Bo","body":"Flickers.","created_at":"2026-01-06"}` + "\n" +
		`{"sku":"LMP-2","rating":3,"author":"Cy","body":"ok","created_at":"2026-01-06","extra":1}` + "\n" +
		`not json` + "\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := importReviewsFile(t, dbURL, path)
	if !errors.Is(err, errReviewsFailed) || out != "imported 2, updated 0, failed 2\n" ||
		!strings.Contains(errOut, "line 4: not a JSON object") || !strings.Contains(errOut, "line 5: not a JSON object") {
		t.Fatalf("run: %q, err %v\n%s", out, err, errOut)
	}
	if out, _, _ := importReviewsFile(t, dbURL, path); out != "imported 0, updated 0, failed 2\n" {
		t.Fatalf("re-import: %q", out)
	}
}
