package catalog

import (
	"fmt"
	"strings"
	"time"
	// The shop's time zone must load in a container without zoneinfo.
	_ "time/tzdata"
)

// BusinessHours is when the shop's team answers, in the shop's time zone.
// The zero value (no hours set) means always open.
//
// Its text form (ParseBusinessHours, String) is the time zone's IANA name
// followed by one or more day ranges with their hours, separated by
// commas:
//
//	Europe/Berlin mon-fri 09:00-18:00, sat 10:00-14:00
//
// Days are mon tue wed thu fri sat sun, alone or as a range ("mon-fri",
// "fri-mon" wraps over the weekend); hours are HH:MM-HH:MM on the same day
// (24:00 ends at midnight). A day may have several spans ("mon 09:00-12:00,
// mon 13:00-18:00"). A day not listed is closed.
type BusinessHours struct {
	Zone  *time.Location
	spans [7][]span // by time.Weekday
	text  string
}

// span is an open stretch of a day, in minutes from midnight.
type span struct{ from, to int }

var weekdays = map[string]time.Weekday{
	"sun": time.Sunday, "mon": time.Monday, "tue": time.Tuesday, "wed": time.Wednesday,
	"thu": time.Thursday, "fri": time.Friday, "sat": time.Saturday,
}

// ParseBusinessHours reads the text form; "" is always open. Anything
// malformed is ErrInvalid with what is wrong.
func ParseBusinessHours(text string) (BusinessHours, error) {
	text = strings.Join(strings.Fields(text), " ")
	if text == "" {
		return BusinessHours{}, nil
	}
	bad := func(format string, args ...any) (BusinessHours, error) {
		return BusinessHours{}, fmt.Errorf("catalog: business hours %q: %w: %s", text, ErrInvalid, fmt.Sprintf(format, args...))
	}
	zoneName, rest, _ := strings.Cut(text, " ")
	zone, err := time.LoadLocation(zoneName)
	if err != nil || zoneName == "Local" {
		return bad("%q is not a time zone (e.g. Europe/Berlin, UTC)", zoneName)
	}
	h := BusinessHours{Zone: zone, text: text}
	if strings.TrimSpace(rest) == "" {
		return bad("no days and hours after the time zone (e.g. mon-fri 09:00-18:00)")
	}
	for _, part := range strings.Split(rest, ",") {
		f := strings.Fields(part)
		if len(f) != 2 {
			return bad("%q is not days and hours (e.g. mon-fri 09:00-18:00)", strings.TrimSpace(part))
		}
		days, ok := dayRange(strings.ToLower(f[0]))
		if !ok {
			return bad("%q is not a day or range of days (mon, tue … sun; mon-fri)", f[0])
		}
		s, ok := parseSpan(f[1])
		if !ok {
			return bad("%q is not hours HH:MM-HH:MM with the end after the start", f[1])
		}
		for _, d := range days {
			h.spans[d] = append(h.spans[d], s)
		}
	}
	return h, nil
}

func dayRange(s string) ([]time.Weekday, bool) {
	a, b, isRange := strings.Cut(s, "-")
	from, ok1 := weekdays[a]
	to, ok2 := weekdays[b]
	if !isRange {
		return []time.Weekday{from}, ok1
	}
	if !ok1 || !ok2 {
		return nil, false
	}
	var days []time.Weekday
	for d := from; ; d = (d + 1) % 7 {
		days = append(days, d)
		if d == to {
			return days, true
		}
	}
}

func parseSpan(s string) (span, bool) {
	a, b, ok := strings.Cut(s, "-")
	from, ok1 := clockMinutes(a)
	to, ok2 := clockMinutes(b)
	return span{from, to}, ok && ok1 && ok2 && to > from
}

func clockMinutes(s string) (int, bool) {
	var h, m int
	if len(s) != 5 || s[2] != ':' {
		return 0, false
	}
	if _, err := fmt.Sscanf(s, "%02d:%02d", &h, &m); err != nil || m > 59 || h > 24 || (h == 24 && m != 0) {
		return 0, false
	}
	return h*60 + m, true
}

// String is the text form the hours were parsed from ("" when always open).
func (h BusinessHours) String() string { return h.text }

// AlwaysOpen reports whether no hours are set.
func (h BusinessHours) AlwaysOpen() bool { return h.Zone == nil }

// NextOpen reports whether the team is in at now and, if not, when it
// next is (in the shop's zone). Hours set but with no open day at all
// answer false and a zero time.
func (h BusinessHours) NextOpen(now time.Time) (open bool, next time.Time) {
	if h.AlwaysOpen() {
		return true, now
	}
	local := now.In(h.Zone)
	for i := 0; i <= 7; i++ {
		day := local.AddDate(0, 0, i)
		midnight := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, h.Zone)
		for _, s := range h.spans[day.Weekday()] {
			from := atMinutes(midnight, s.from)
			to := atMinutes(midnight, s.to)
			if !now.Before(from) && now.Before(to) {
				return true, now
			}
			if from.After(now) && (next.IsZero() || from.Before(next)) {
				next = from
			}
		}
		if !next.IsZero() {
			return false, next
		}
	}
	return false, time.Time{}
}

// atMinutes is the wall-clock time m minutes after midnight on midnight's
// day (so a daylight-saving change that day keeps 09:00 at 09:00).
func atMinutes(midnight time.Time, m int) time.Time {
	return time.Date(midnight.Year(), midnight.Month(), midnight.Day(), m/60, m%60, 0, 0, midnight.Location())
}
