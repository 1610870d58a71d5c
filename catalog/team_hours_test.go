package catalog_test

import (
	"errors"
	"testing"
	"time"

	"shopbot/catalog"
)

// TestBusinessHours: the format, bad input refused with ErrInvalid, and
// the next opening across a weekend, in the shop's zone whatever the
// clock's zone, over a daylight-saving change.
func TestBusinessHours(t *testing.T) {
	for _, bad := range []string{"Mars/Base mon 09:00-18:00", "UTC", "UTC mon", "UTC xyz 09:00-18:00", "UTC mon 18:00-09:00",
		"UTC mon 9:00-18:00", "UTC mon 09:00-24:30", "UTC mon-xyz 09:00-10:00", "Local mon 09:00-10:00"} {
		if _, err := catalog.ParseBusinessHours(bad); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("%q: %v, want ErrInvalid", bad, err)
		}
	}
	if h, err := catalog.ParseBusinessHours("  "); err != nil || !h.AlwaysOpen() {
		t.Fatalf("empty: %v %v", h, err)
	}
	h, err := catalog.ParseBusinessHours("Europe/Berlin  mon-fri 09:00-18:00, sat 10:00-14:00")
	if err != nil {
		t.Fatal(err)
	}
	if h.String() != "Europe/Berlin mon-fri 09:00-18:00, sat 10:00-14:00" {
		t.Errorf("string %q", h.String())
	}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	at := func(loc *time.Location, y int, m time.Month, d, hh, mm int) time.Time {
		return time.Date(y, m, d, hh, mm, 0, 0, loc)
	}
	for _, c := range []struct {
		name string
		now  time.Time
		open bool
		next time.Time
	}{
		{"friday noon", at(berlin, 2026, 11, 27, 12, 0), true, time.Time{}},
		{"friday evening to saturday", at(berlin, 2026, 11, 27, 18, 0), false, at(berlin, 2026, 11, 28, 10, 0)},
		{"saturday after closing to monday", at(berlin, 2026, 11, 28, 14, 0), false, at(berlin, 2026, 11, 30, 9, 0)},
		{"sunday to monday", at(berlin, 2026, 11, 29, 23, 59), false, at(berlin, 2026, 11, 30, 9, 0)},
		{"monday early", at(berlin, 2026, 11, 30, 8, 59), false, at(berlin, 2026, 11, 30, 9, 0)},
		// Monday 01:00 in Tokyo is Sunday 17:00 in Berlin: closed until Monday 09:00 Berlin.
		{"clock in another zone", at(tokyo, 2026, 11, 30, 1, 0), false, at(berlin, 2026, 11, 30, 9, 0)},
		// Saturday 12:00 UTC is 13:00 in Berlin: open.
		{"utc clock inside saturday hours", at(time.UTC, 2026, 11, 28, 12, 0), true, time.Time{}},
		// Clocks go back on 2026-10-25 in Berlin: still 09:00 local on Monday.
		{"over a daylight-saving change", at(berlin, 2026, 10, 24, 15, 0), false, at(berlin, 2026, 10, 26, 9, 0)},
	} {
		open, next := h.NextOpen(c.now)
		if open != c.open || (!open && !next.Equal(c.next)) {
			t.Errorf("%s: open %v next %v, want %v %v", c.name, open, next, c.open, c.next)
		}
	}
	wrap, err := catalog.ParseBusinessHours("UTC fri-mon 10:00-12:00")
	if err != nil {
		t.Fatal(err)
	}
	if open, next := wrap.NextOpen(at(time.UTC, 2026, 12, 1, 11, 0)); open || !next.Equal(at(time.UTC, 2026, 12, 4, 10, 0)) {
		t.Errorf("tuesday with fri-mon: %v %v", open, next)
	}
}
