package importer_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/importer"
)

// badRows writes a CSV of n rows that all fail (the stock cell is text;
// on row 8 it is huge) and one good row at the end.
func badRows(n int, huge string) string {
	var b strings.Builder
	b.WriteString("sku,title,price,stock\n")
	for i := range n {
		cell := "a few"
		if i == 7 {
			cell = huge
		}
		fmt.Fprintf(&b, "BAD-%d,Bad %d,1.00,\"%s\"\n", i, i, strings.ReplaceAll(cell, `"`, `""`))
	}
	b.WriteString("GOOD-1,Good,1.00,3\n")
	return b.String()
}

// TestImportKeepsTheFirstErrors: 5,000 bad rows keep the first 1,000
// errors in file order and count the other 4,000; a 1 MB cell is not
// echoed, and progress is reported while no batch is written.
func TestImportKeepsTheFirstErrors(t *testing.T) {
	db := catalogtest.SQLite(t)
	huge := strings.Repeat(`"<&>`, 1<<18) // 1 MiB
	var progress []int
	sum, err := importer.Import(context.Background(), db, strings.NewReader(badRows(5000, huge)), "bad.csv",
		importer.Options{Progress: func(p importer.Progress) { progress = append(progress, p.Summary.Rows) }})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Rows != 5001 || sum.Imported != 1 || sum.Failed != 5000 || len(sum.Errors) != 1000 || sum.MoreErrors() != 4000 {
		t.Fatalf("summary = %v rows %d, kept %d, more %d", sum, sum.Rows, len(sum.Errors), sum.MoreErrors())
	}
	for i, e := range sum.Errors {
		if e.Line != i+2 || e.SKU != fmt.Sprintf("BAD-%d", i) {
			t.Fatalf("error %d = line %d sku %s, want the first rows in order", i, e.Line, e.SKU)
		}
		if n := utf8.RuneCountInString(e.Reason); n > 120 || !strings.Contains(e.Reason, "stock") {
			t.Fatalf("reason of %d runes: %.200s", n, e.Reason)
		}
	}
	if len(progress) < 5 {
		t.Errorf("progress calls at rows %v, want one every 1,000 rows", progress)
	}
	small, _ := importer.Import(context.Background(), db, strings.NewReader(badRows(30, "x")), "bad.csv", importer.Options{MaxErrors: 10})
	if len(small.Errors) != 10 || small.MoreErrors() != 20 {
		t.Errorf("MaxErrors 10: kept %d, more %d", len(small.Errors), small.MoreErrors())
	}
}

// TestImportCleansControlCharacters: NUL and other control characters are
// stripped (the description keeps its line breaks and tabs); a field that
// is not UTF-8 fails its row with a clear reason. CSV and JSONL, SQLite
// and Postgres (which refuses NUL in text).
func TestImportCleansControlCharacters(t *testing.T) {
	// The Latin-1 row comes after the first 8 KiB: a file that starts
	// with invalid UTF-8 is refused as a whole (TestImportRejectsNonTabularFiles).
	pad := strings.Repeat("\n", 9000)
	files := map[string]string{
		"nul.csv": "sku,title,description,brand,price,attributes\n" +
			"NUL-3,Cu\x00p,ok,Acme,1.00,\n" + pad +
			"NUL-1,Tea\x00 Pot\x07,\"Line one\nLine\ttwo\x00\x1b[31m\",Ac\u0085me,\x0012.50,\"{\"\"co\x00lor\"\":\"\"red\x01\"\"}\"\n" +
			"NUL-2,Caf\xe9,Latin-1,Acme,3.00,\n",
		"nul.jsonl": "{\"sku\":\"NUL-3\",\"title\":\"Cu\x00p\",\"price\":1}\n" + pad +
			`{"sku":"NUL-1","title":"Tea\u0000 Pot\u0007","description":"Line one\nLine\ttwo\u0000\u001b[31m","brand":"Ac\u0085me","price":"\u000012.50","attributes":{"co\u0000lor":"red\u0001"}}` + "\n" +
			"{\"sku\":\"NUL-2\",\"title\":\"Caf\xe9\",\"price\":3}\n",
	}
	lastLine := map[string]int{"nul.csv": 9005, "nul.jsonl": 9003}
	for name, body := range files {
		t.Run(name, func(t *testing.T) {
			catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
				ctx := context.Background()
				sum, err := importer.Import(ctx, db, strings.NewReader(body), name, importer.Options{})
				if err != nil || sum.Imported != 2 || sum.Failed != 1 || len(sum.Errors) != 1 {
					t.Fatalf("summary = %v %+v, %v", sum, sum.Errors, err)
				}
				if e := sum.Errors[0]; e.Line != lastLine[name] || e.SKU != "NUL-2" || !strings.Contains(e.Reason, "not valid UTF-8") {
					t.Errorf("the Latin-1 row: %+v", e)
				}
				p, err := catalog.GetProduct(ctx, db, "NUL-1")
				if err != nil {
					t.Fatal(err)
				}
				if p.Title != "Tea Pot" || p.Description != "Line one\nLine\ttwo[31m" || p.Brand != "Acme" ||
					p.Price != 1250 || p.Attributes["color"] != "red" {
					t.Errorf("NUL-1 = %q %q %q %d %v", p.Title, p.Description, p.Brand, p.Price, p.Attributes)
				}
				if p, err := catalog.GetProduct(ctx, db, "NUL-3"); err != nil || p.Title != "Cup" {
					t.Errorf("NUL-3 (a NUL in the first row) = %q, %v", p.Title, err)
				}
				if _, err := catalog.GetProduct(ctx, db, "NUL-2"); !errors.Is(err, catalog.ErrNotFound) {
					t.Errorf("the Latin-1 row was written: %v", err)
				}
			})
		})
	}
}

// TestImportBoundsRows: a JSONL line over 8 MiB fails alone and the next
// line is read; a CSV record that runs on (an unclosed quote) stops the
// import with a clear error instead of filling memory.
func TestImportBoundsRows(t *testing.T) {
	db := catalogtest.SQLite(t)
	long := strings.Repeat("x", 9<<20)
	jsonl := `{"sku":"L-1","title":"` + long + `","price":1}` + "\n" + `{"sku":"L-2","title":"Short","price":1}` + "\n"
	sum, err := importer.Import(context.Background(), db, strings.NewReader(jsonl), "long.jsonl", importer.Options{})
	if err != nil || sum.Imported != 1 || sum.Failed != 1 || sum.Errors[0].Line != 1 || !strings.Contains(sum.Errors[0].Reason, "longer than 8 MiB") {
		t.Fatalf("summary = %v %+v, %v", sum, sum.Errors, err)
	}
	csv := "sku,title,price\nC-1,\"unclosed," + long + "\n"
	_, err = importer.Import(context.Background(), db, bytes.NewReader([]byte(csv)), "long.csv", importer.Options{})
	if err == nil || !strings.Contains(err.Error(), "longer than 8 MiB") {
		t.Fatalf("unclosed quote: err = %v", err)
	}
}
