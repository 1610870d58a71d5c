package importer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/importer"
)

// BenchmarkImport100k imports 100,000 synthetic products (the output of
// `shopbot demo-catalog --size 100000`) into an empty database.
// Target: ≤ 60 s on SQLite and on Postgres.
func BenchmarkImport100k(b *testing.B) {
	var file bytes.Buffer
	if err := demo.WriteSynthetic(&file, 100_000, 1); err != nil {
		b.Fatal(err)
	}
	for _, kind := range []string{"sqlite", "postgres"} {
		b.Run(kind, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				var db *bun.DB
				if kind == "sqlite" {
					db = catalogtest.SQLite(b)
				} else {
					db, _ = catalogtest.Postgres(b)
				}
				b.StartTimer()
				sum, err := importer.Import(context.Background(), db, bytes.NewReader(file.Bytes()), "bench.jsonl", importer.Options{})
				if err != nil || sum.Imported != 100_000 {
					b.Fatalf("%v: %v", sum, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Seconds())/float64(b.N), "s/import")
		})
	}
}

// variantFile turns the 100,000 synthetic products into 100,000 parents
// without a price (they take their variants' lowest), each followed by
// its 4 variants (size S/M × colour Navy/Sand, own SKU, price and stock,
// the rest inherited): 500,000 rows, 400,000 of them variants. With
// variantsFirst, each parent comes after its variants instead, so every
// variant is spilled and imported after the file.
func variantFile(b *testing.B, variantsFirst bool) []byte {
	var synth bytes.Buffer
	if err := demo.WriteSynthetic(&synth, 100_000, 1); err != nil {
		b.Fatal(err)
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	opts := [4]string{`{"size":"S","colour":"Navy"}`, `{"size":"S","colour":"Sand"}`, `{"size":"M","colour":"Navy"}`, `{"size":"M","colour":"Sand"}`}
	for i, line := range bytes.Split(bytes.TrimSpace(synth.Bytes()), []byte("\n")) {
		var parent map[string]any
		if err := json.Unmarshal(line, &parent); err != nil {
			b.Fatal(err)
		}
		delete(parent, "price")
		sku := parent["sku"].(string)
		var variants bytes.Buffer
		for k, o := range opts {
			fmt.Fprintf(&variants, `{"sku":"%s-%d","variant_of":"%s","options":%s,"price":"%d.%02d","stock":%d}`+"\n",
				sku, k, sku, o, 10+i%90+k, k*25, (i+k)%7)
		}
		if variantsFirst {
			out.Write(variants.Bytes())
		}
		if err := enc.Encode(parent); err != nil {
			b.Fatal(err)
		}
		if !variantsFirst {
			out.Write(variants.Bytes())
		}
	}
	return out.Bytes()
}

// BenchmarkImportVariants100kx4 imports 100,000 parents × 4 variants
// (variantFile) into an empty database: in file order (each parent before
// its variants, as shops export them) and with every parent after its
// variants (all variants spilled). Target: ≤ 120 s on SQLite and on
// Postgres.
func BenchmarkImportVariants100kx4(b *testing.B) {
	for _, order := range []string{"parents-first", "variants-first"} {
		file := variantFile(b, order == "variants-first")
		for _, kind := range []string{"sqlite", "postgres"} {
			b.Run(order+"/"+kind, func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					var db *bun.DB
					if kind == "sqlite" {
						db = catalogtest.SQLite(b)
					} else {
						db, _ = catalogtest.Postgres(b)
					}
					runtime.GC()
					b.StartTimer()
					sum, err := importer.Import(context.Background(), db, bytes.NewReader(file), "bench.jsonl", importer.Options{})
					if err != nil || sum.Imported != 500_000 || sum.Failed != 0 {
						b.Fatalf("%v %+v: %v", sum, sum.Errors, err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Seconds())/float64(b.N), "s/import")
			})
		}
	}
}

// badRowsReader streams about size bytes of CSV rows that all fail (a
// 500-byte text in the stock column; every 5,000th row a 1 MiB one), so
// the file itself takes no memory.
type badRowsReader struct {
	left int
	i    int
	buf  []byte
}

func (r *badRowsReader) Read(p []byte) (int, error) {
	if len(r.buf) == 0 {
		if r.left <= 0 {
			return 0, io.EOF
		}
		if r.i == 0 {
			r.buf = []byte("sku,title,price,currency,stock,description\n")
		} else {
			cell := strings.Repeat(`<b>&""quoted""</b> `, 25)
			if r.i%5000 == 0 {
				cell = strings.Repeat("x", 1<<20)
			}
			r.buf = fmt.Appendf(nil, "BAD-%d,Bad row %d,12.50,USD,\"%s\",desc\n", r.i, r.i, cell)
		}
		r.i++
		r.left -= len(r.buf)
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// BenchmarkImportBadRows50MB imports 50 MB of bad rows and reports the
// peak heap in use (sampled at every progress call) and the kept errors.
// Target: the heap stays flat (well under 100 MB) and 1,000 errors kept.
func BenchmarkImportBadRows50MB(b *testing.B) {
	db := catalogtest.SQLite(b)
	for b.Loop() {
		runtime.GC()
		var peak uint64
		sample := func(importer.Progress) {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
		}
		sum, err := importer.Import(context.Background(), db, &badRowsReader{left: 50 << 20}, "bad.csv", importer.Options{Progress: sample})
		if err != nil || sum.Failed < 50_000 || len(sum.Errors) != importer.DefaultMaxErrors {
			b.Fatalf("%v (kept %d): %v", sum, len(sum.Errors), err)
		}
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		b.ReportMetric(float64(sum.Failed), "failed-rows")
	}
}
