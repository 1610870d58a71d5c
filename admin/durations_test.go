package admin

import (
	"testing"
	"time"
)

// TestHumane: durations read as a merchant writes them, not as Go's
// "1m0s".
func TestHumane(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                                     "0 s",
		350 * time.Millisecond:                "350 ms",
		200 * time.Microsecond:                "1 ms",
		2500 * time.Millisecond:               "2.5 s",
		2 * time.Second:                       "2 s",
		45 * time.Second:                      "45 s",
		59*time.Second + 700*time.Millisecond: "1 min",
		time.Minute:                           "1 min",
		90 * time.Second:                      "1 min 30 s",
		59*time.Minute + 59*time.Second + 600*time.Millisecond: "1 h",
		time.Hour:                   "1 h",
		2*time.Hour + 5*time.Minute: "2 h 5 min",
		2*time.Hour + 5*time.Minute + 20*time.Second: "2 h 5 min",
		24 * time.Hour:                "1 d",
		7 * 24 * time.Hour:            "7 d",
		27*time.Hour + 10*time.Minute: "1 d 3 h",
		-90 * time.Second:             "−1 min 30 s",
	} {
		if got := humane(d); got != want {
			t.Errorf("humane(%v) = %q, want %q", d, got, want)
		}
	}
	for v, want := range map[any]string{"1m0s": "1 min", "1m0.25s": "1 min", "3.2s": "3.2 s", "soon": "soon", 7: "7", time.Minute: "1 min"} {
		if got := durationText(v); got != want {
			t.Errorf("durationText(%v) = %q, want %q", v, got, want)
		}
	}
}
