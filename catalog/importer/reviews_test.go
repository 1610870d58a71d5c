package importer_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/importer"
)

// reviewsShop adds two products to review.
func reviewsShop(t *testing.T, db bun.IDB) {
	t.Helper()
	var ins []catalog.ProductInput
	for _, sku := range []string{"JKT-1", "LMP-2"} {
		in := catalog.ProductInput{SKU: sku, Title: "Product " + sku, Brand: "Acme", CategoryPath: []string{"Home"},
			Price: 1000, Currency: "USD", Stock: 3}
		if err := in.Validate(); err != nil {
			t.Fatal(err)
		}
		ins = append(ins, in)
	}
	if _, err := catalog.UpsertProducts(context.Background(), db, ins); err != nil {
		t.Fatal(err)
	}
}

func importReviews(t *testing.T, db bun.IDB, name, data string) importer.Summary {
	t.Helper()
	sum, err := importer.ImportReviews(context.Background(), db, strings.NewReader(data), name, importer.Options{})
	if err != nil {
		t.Fatalf("import %s: %v", name, err)
	}
	return sum
}

// rowErrors is a summary's errors as the command prints them.
func rowErrors(sum importer.Summary) string {
	var b strings.Builder
	for _, e := range sum.Errors {
		b.WriteString(e.Error() + "\n")
	}
	return b.String()
}

// TestImportReviewsCSV: good rows are stored with their passages and fold
// into the rating; bad rows are listed by line and reason and change
// nothing; the same file again changes nothing; an edited row updates.
func TestImportReviewsCSV(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		reviewsShop(t, db)
		good := "sku,rating,author,title,body,created_at\n" +
			"JKT-1,2,Ann,Zip broke,\"The zipper broke\nafter a week.\",2026-03-01\n" +
			"JKT-1,5,Bo,,Warm and light.,2026-03-02T10:00:00Z\n"
		bad := "NOPE,4,Cy,,Fine.,2026-03-01\n" + // line 5
			"JKT-1,7,Di,,Fine.,2026-03-01\n" +
			"JKT-1,4,Ed,,Fine.,yesterday\n" +
			"JKT-1,4,Fay,,,2026-03-01\n" +
			"JKT-1,4,Hal,," + strings.Repeat("x", 2*catalog.MaxReviewBody+1) + ",2026-03-01\n" +
			// past the sniffed 8 KiB, so the file is text and the row fails alone
			"JKT-1,4,Gus,,Bad \xff text,2026-03-01\n"
		sum := importReviews(t, db, "reviews.csv", good+bad)
		if sum.String() != "imported 2, updated 0, failed 6" || sum.Format != importer.CSV {
			t.Fatalf("first run: %v\n%s", sum, rowErrors(sum))
		}
		errs := rowErrors(sum)
		for _, want := range []string{"line 5 (sku NOPE): unknown sku", "line 6 (sku JKT-1): rating 7 is not 1–5",
			"line 7 (sku JKT-1): created_at \"yesterday\"", "line 8 (sku JKT-1): empty body",
			"line 9 (sku JKT-1): the body has 8001 characters", "line 10 (sku JKT-1): text is not valid UTF-8"} {
			if !strings.Contains(errs, want) {
				t.Errorf("errors lack %q:\n%s", want, errs)
			}
		}
		if sum := importReviews(t, db, "reviews.csv", good); sum.String() != "imported 0, updated 0, failed 0" {
			t.Fatalf("re-import: %v", sum)
		}
		edited := strings.Replace(good, "Warm and light.", "\"Warm, light, and the hood stays up.\"", 1)
		if sum := importReviews(t, db, "reviews.csv", edited); sum.String() != "imported 0, updated 1, failed 0" {
			t.Fatalf("edited: %v", sum)
		}
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
	})
}

// TestImportReviewsJSONL: JSONL by content (no extension), rating as a
// number or a string, bad lines by number.
func TestImportReviewsJSONL(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		reviewsShop(t, db)
		data := `{"sku":"LMP-2","rating":4,"author":"Ann","title":"Bright","body":"Bright enough to read by.","created_at":"2026-01-05T08:00:00Z"}` + "\n" +
			"\n" +
			`{"sku":"LMP-2","rating":"1","author":"Bo","body":"Flickers.","created_at":"2026-01-06"}` + "\n" +
			`{"sku":"LMP-2","rating":3,"author":"Cy","body":"ok","created_at":"2026-01-06","extra":1}` + "\n" +
			`not json` + "\n"
		sum := importReviews(t, db, "reviews", data)
		errs := rowErrors(sum)
		if sum.String() != "imported 2, updated 0, failed 2" || sum.Format != importer.JSONL ||
			!strings.Contains(errs, "line 4: not a JSON object") || !strings.Contains(errs, "line 5: not a JSON object") {
			t.Fatalf("run: %v\n%s", sum, errs)
		}
		if sum := importReviews(t, db, "reviews", data); sum.String() != "imported 0, updated 0, failed 2" {
			t.Fatalf("re-import: %v", sum)
		}
	})
}

// TestImportReviewsRefusesNonText: a binary file, an empty one and a CSV
// without the review columns fail as a whole and change nothing.
func TestImportReviewsRefusesNonText(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		reviewsShop(t, db)
		for name, data := range map[string]string{
			"photo.csv":    "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + strings.Repeat("\x00\x01", 100),
			"latin1.csv":   "sku,rating,author,title,body,created_at\nJKT-1,5,Zo\xe9,,Caf\xe9,2026-03-01\n",
			"empty.jsonl":  " \n",
			"products.csv": "sku,title,price\nJKT-1,Jacket,10.00\n",
		} {
			_, err := importer.ImportReviews(ctx, db, strings.NewReader(data), name, importer.Options{})
			if !errors.Is(err, importer.ErrNotReviews) {
				t.Errorf("%s: err = %v, want ErrNotReviews", name, err)
			}
		}
		p, _ := catalog.GetProduct(ctx, db, "JKT-1")
		if rs, _ := catalog.ListReviews(ctx, db, p.ID, 10); len(rs) != 0 {
			t.Errorf("%d reviews stored from refused files", len(rs))
		}
	})
}
