package eval_test

import (
	"context"
	"testing"

	"shopbot/catalog/catalogtest"
)

// BenchmarkEighty runs the example eight times over (80 scenarios, 200
// turns) against the offline planner, 4 at a time: the target is 80
// scenarios in 10 s on 2 cores.
func BenchmarkEighty(b *testing.B) {
	s := newTestShop(b, catalogtest.SQLiteSeeded(b))
	scs := repeated(parseFile(b, "testdata/example.yaml"), 8)
	r := s.runner(nil, 4)
	b.ResetTimer()
	for b.Loop() {
		rep, err := r.Run(context.Background(), scs)
		if err != nil {
			b.Fatal(err)
		}
		if rep.Passed != 80 {
			b.Fatalf("passed %d/80", rep.Passed)
		}
	}
}
