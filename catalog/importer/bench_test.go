package importer_test

import (
	"bytes"
	"context"
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
