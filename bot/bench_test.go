package main

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkStartup measures `shopbot serve` from start to /readyz 200 on
// SQLite: "first" on an empty file (migrations and the demo catalog
// included), "later" on a prepared one. Target: first ≤ 3 s, later ≤ 1 s.
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	for _, mode := range []string{"first", "later"} {
		b.Run(mode, func(b *testing.B) {
			warm := "sqlite:" + filepath.Join(dir, "warm.db")
			if mode == "later" {
				s := startServer(b, map[string]string{"DATABASE_URL": warm})
				s.waitReady(b)
				s.stop(b)
			}
			i := 0
			for b.Loop() {
				url := warm
				if mode == "first" {
					url = "sqlite:" + filepath.Join(dir, fmt.Sprintf("first-%d.db", i))
				}
				i++
				start := time.Now()
				s := startServer(b, map[string]string{"DATABASE_URL": url})
				s.waitReady(b)
				b.ReportMetric(float64(time.Since(start).Milliseconds()), "ms-to-ready")
				b.StopTimer()
				s.stop(b)
				b.StartTimer()
			}
		})
	}
}
