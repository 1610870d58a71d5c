package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"shopbot/engine/llmtest"
)

// TestFactCheckWithoutProducts: a price the model makes up while no product
// is listed (no tool ran, nothing on screen) is named and disowned, in the
// shopper's language; prices that can be checked are left alone.
func TestFactCheckWithoutProducts(t *testing.T) {
	for _, tc := range []struct {
		name, locale, text, reply string
		want, notWant             []string
		unverified                float64
	}{
		{name: "made-up price", text: "how much are running shoes?", reply: "Running shoes cost about $12.34 here.",
			want: []string{"Please don't rely on $12.34", "couldn't check it against the catalog"}, unverified: 1},
		{name: "russian", locale: "ru", text: "сколько стоят кроссовки?", reply: "Кроссовки стоят 990 ₽.",
			want: []string{"Не ориентируйтесь на 990 ₽"}, unverified: 1},
		{name: "two prices", text: "prices?", reply: "From $5 to $7.50, roughly.",
			want: []string{"Please don't rely on $5, $7.50:"}, unverified: 2},
		{name: "the shopper's own amount", text: "anything under 150?", reply: "Let me look for something under $150.",
			notWant: []string{"rely on", "Current figures"}},
		{name: "price of a named SKU", text: "the glide?", reply: "SHO-RUN-001 costs $89.99.",
			want: []string{"Current figures from the catalog:", "(SHO-RUN-001) — $89.99"}, notWant: []string{"rely on"}},
		{name: "wrong price of a named SKU", text: "the glide?", reply: "SHO-RUN-001 costs $9.99.",
			want: []string{"(SHO-RUN-001) — $89.99", "Please don't rely on $9.99"}, unverified: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEngineEnv(t, llmtest.Reply(tc.reply))
			ev := &events{}
			turn := Turn{Channel: "web", ChatID: "shopper-1", UserID: "shopper-1", Locale: tc.locale, Text: tc.text, DedupKey: "f1"}
			if err := e.eng.Handle(context.Background(), turn, ev); err != nil {
				t.Fatal(err)
			}
			done := ev.done()
			if !strings.HasPrefix(done, tc.reply) || !strings.HasPrefix(ev.streamed(), tc.reply) || ev.streamed() != done {
				t.Errorf("streamed %q, done %q", ev.streamed(), done)
			}
			for _, w := range tc.want {
				if !strings.Contains(done, w) {
					t.Errorf("answer %q lacks %q", done, w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(done, w) {
					t.Errorf("answer %q has %q", done, w)
				}
			}
			if got := testutil.ToFloat64(e.eng.metrics.unverified.WithLabelValues("price")); got != tc.unverified {
				t.Errorf("unverified prices = %v, want %v", got, tc.unverified)
			}
		})
	}
}
