package admin

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// humane is a duration as a merchant reads it: "350 ms", "2.5 s",
// "45 s", "1 min", "1 min 30 s", "2 h 5 min", "3 d 4 h" — not Go's
// "1m0s". Each size keeps its two largest units, rounded.
func humane(d time.Duration) string {
	if d < 0 {
		return "−" + humane(-d)
	}
	switch {
	case d == 0:
		return "0 s"
	case d < time.Second:
		return strconv.FormatInt(max(d.Round(time.Millisecond).Milliseconds(), 1), 10) + " ms"
	case d < 10*time.Second:
		s := strconv.FormatFloat(d.Round(100*time.Millisecond).Seconds(), 'f', 1, 64)
		return strings.TrimSuffix(s, ".0") + " s"
	case d < time.Minute:
		d = d.Round(time.Second)
		if d < time.Minute {
			return strconv.Itoa(int(d/time.Second)) + " s"
		}
	}
	if d < time.Hour {
		d = d.Round(time.Second)
		return pair(int(d/time.Minute), "min", int(d%time.Minute/time.Second), "s", d < time.Hour)
	}
	if d < 24*time.Hour {
		d = d.Round(time.Minute)
		return pair(int(d/time.Hour), "h", int(d%time.Hour/time.Minute), "min", d < 24*time.Hour)
	}
	d = d.Round(time.Hour)
	return pair(int(d/(24*time.Hour)), "d", int(d%(24*time.Hour)/time.Hour), "h", true)
}

// pair is "2 h 5 min", or "2 h" when the smaller unit is 0; fits is false
// when rounding carried into the next size (59 min 59.6 s is "1 h").
func pair(big int, bigUnit string, small int, smallUnit string, fits bool) string {
	if !fits {
		return humane(nextSize(bigUnit))
	}
	if small == 0 {
		return fmt.Sprintf("%d %s", big, bigUnit)
	}
	return fmt.Sprintf("%d %s %d %s", big, bigUnit, small, smallUnit)
}

func nextSize(unit string) time.Duration {
	if unit == "min" {
		return time.Hour
	}
	return 24 * time.Hour
}

// durationText is the templates' duration: a time.Duration, or a string
// Go's Duration.String wrote ("1m0.25s"), printed humane. Anything else
// prints as it is.
func durationText(v any) string {
	switch d := v.(type) {
	case time.Duration:
		return humane(d)
	case string:
		if parsed, err := time.ParseDuration(d); err == nil {
			return humane(parsed)
		}
		return d
	default:
		return fmt.Sprint(v)
	}
}
