package eval_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"shopbot/catalog/catalogtest"
	"shopbot/engine"
)

// BenchmarkReplay1000Turns replays 1,000 stored turns (100 conversations
// of 10, the example scenarios' turns as shoppers said them, the planner
// answering then and now), 4 conversations at a time: the target
// is 20 s on 2 cores.
func BenchmarkReplay1000Turns(b *testing.B) {
	s := newTestShop(b, catalogtest.SQLiteSeeded(b))
	ctx := context.Background()
	serving, err := engine.New(engine.Config{DB: s.src, Search: s.index, Pages: s.pages, RateLimit: 1 << 30, Registry: prometheus.NewRegistry()})
	if err != nil {
		b.Fatal(err)
	}
	var says []engine.Turn
	for _, sc := range parseFile(b, "testdata/example.yaml") {
		for _, t := range sc.Turns {
			says = append(says, engine.Turn{Text: t.Say, Action: t.Press, Locale: sc.Locale, UserName: sc.User})
		}
	}
	for c := range 100 {
		who := fmt.Sprintf("bench-%d", c)
		for k := range 10 {
			in := says[(c+k)%len(says)]
			// A shopper's locale is their platform's, the same all along.
			in.Locale = says[c%len(says)].Locale
			in.Channel, in.ChatID, in.UserID, in.DedupKey = "web", who, who, fmt.Sprintf("%s-%d", who, k)
			if err := serving.Handle(ctx, in, engine.SinkFunc(func(context.Context, engine.Event) error { return nil })); err != nil {
				b.Fatal(err)
			}
		}
	}
	convs := storedTB(b, s, time.Time{})
	b.ResetTimer()
	for b.Loop() {
		rep, err := s.replayer(s.runner(nil, 4)).Replay(ctx, convs)
		if err != nil {
			b.Fatal(err)
		}
		// Nothing changed between serving and replaying: every turn
		// replayed as it went.
		if rep.Total != 1000 || rep.Failed != 0 || rep.Changed != 0 {
			b.Fatalf("replayed %d turns, %d failed, %d changed", rep.Total, rep.Failed, rep.Changed)
		}
	}
}
