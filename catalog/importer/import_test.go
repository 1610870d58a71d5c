package importer_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/importer"
)

func importFile(t *testing.T, db *bun.DB, path string) importer.Summary {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sum, err := importer.Import(context.Background(), db, f, path, importer.Options{BatchSize: 3})
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func reasons(sum importer.Summary) map[int]string {
	out := map[int]string{}
	for _, e := range sum.Errors {
		out[e.Line] = e.Reason
	}
	return out
}

func TestImportCSV(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		sum := importFile(t, db, "testdata/mixed.csv")
		if sum.Imported != 2 || sum.Updated != 0 || sum.Failed != 8 || sum.Format != importer.CSV {
			t.Fatalf("summary = %v %+v", sum, sum.Errors)
		}
		want := map[int]string{
			3:  "not a decimal amount",
			4:  "unknown currency",
			5:  "missing sku",
			6:  "attributes",
			7:  "duplicate sku (first seen on line 2)",
			9:  "whole number from 0",
			10: "nested object",
			11: "not an http(s) URL",
		}
		got := reasons(sum)
		for line, frag := range want {
			if !strings.Contains(got[line], frag) {
				t.Errorf("line %d: reason %q, want it to mention %q", line, got[line], frag)
			}
		}
		p, err := catalog.GetProduct(ctx, db, "SHO-1")
		if err != nil {
			t.Fatal(err)
		}
		if p.Price != 8950 || p.Currency != "USD" || p.Attributes["size"] != "42" || p.Attributes["waterproof"] != "true" ||
			p.Category == nil || p.Category.Path != "Shoes > Running > Trail" {
			t.Errorf("SHO-1 = %+v", p)
		}
		if p, _ := catalog.GetProduct(ctx, db, "JKT-1"); p.Title != "Stormline Waterproof Jacket" || len(p.ImageURLs) != 1 {
			t.Errorf("the duplicate row overwrote JKT-1: %+v", p)
		}
		// Nothing of a bad row is written.
		for _, sku := range []string{"JKT-2", "JKT-3", "JKT-5", "SHO-2", "SHO-3", "SHO-4"} {
			if _, err := catalog.GetProduct(ctx, db, sku); !errors.Is(err, catalog.ErrNotFound) {
				t.Errorf("bad row %s was written (err = %v)", sku, err)
			}
		}
		// A second run updates instead of inserting.
		if again := importFile(t, db, "testdata/mixed.csv"); again.Imported != 0 || again.Updated != 2 {
			t.Errorf("re-import = %v", again)
		}
	})
}

func TestImportJSONL(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		sum := importFile(t, db, "testdata/mixed.jsonl")
		if sum.Imported != 2 || sum.Failed != 4 || sum.Format != importer.JSONL {
			t.Fatalf("summary = %v %+v", sum, sum.Errors)
		}
		got := reasons(sum)
		for line, frag := range map[int]string{4: "invalid JSON", 5: "unknown field", 6: "more than 2 decimals", 7: "missing price"} {
			if !strings.Contains(got[line], frag) {
				t.Errorf("line %d: reason %q, want it to mention %q", line, got[line], frag)
			}
		}
		p, err := catalog.GetProduct(context.Background(), db, "MUG-2")
		if err != nil || p.Price != 950 || p.Stock != 7 {
			t.Errorf("MUG-2 = %+v, %v", p, err)
		}
	})
}

func TestImportRejectsNonTabularFiles(t *testing.T) {
	db := catalogtest.SQLite(t)
	for name, body := range map[string][]byte{
		"photo.csv":    {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 'I', 'H', 'D', 'R'},
		"latin1.csv":   []byte("sku,title,price\nA,Caf\xe9,1.00\n"),
		"empty.csv":    []byte("  \n"),
		"notes.txt":    []byte("Remember to order more coffee.\nAnd milk.\n"),
		"no-price.csv": []byte("sku,title\nA,B\n"),
		"utf16.csv":    []byte("s\x00k\x00u\x00,\x00t\x00i\x00t\x00l\x00e\x00,\x00p\x00r\x00i\x00c\x00e\x00\n\x00"),
	} {
		_, err := importer.Import(context.Background(), db, bytes.NewReader(body), name, importer.Options{})
		if !errors.Is(err, importer.ErrNotTabular) {
			t.Errorf("%s: err = %v, want ErrNotTabular", name, err)
		}
	}
	if n, _ := catalog.CountProducts(context.Background(), db); n != 0 {
		t.Errorf("%d products written from non-product files", n)
	}
}

func TestImportProgressAndBOM(t *testing.T) {
	db := catalogtest.SQLite(t)
	body := "\xef\xbb\xbfsku,title,price\nA-1,Apple,1.00\nB-1,Banana,0.25\n"
	var calls []int64
	sum, err := importer.Import(context.Background(), db, strings.NewReader(body), "fruit.csv",
		importer.Options{BatchSize: 1, Progress: func(p importer.Progress) { calls = append(calls, p.BytesRead) }})
	if err != nil || sum.Imported != 2 || sum.Failed != 0 {
		t.Fatalf("summary = %v %+v, %v", sum, sum.Errors, err)
	}
	if len(calls) == 0 || calls[len(calls)-1] != int64(len(body)) {
		t.Errorf("progress calls = %v, want the last to be %d", calls, len(body))
	}
}
