package tools

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"shopbot/catalog"
	"shopbot/engine/locale"
)

// teamAway tells a shopper who asked for a person outside the team's
// business hours (catalog.BusinessHours, a setting kept in the database)
// when someone will answer, in their language and the shop's time zone:
// "Someone will answer here on Monday at 09:00 (Europe/Berlin time)".
// ok is false in business hours, with no hours set, and without a
// database (a test's fake stores).
func (d *Deps) teamAway(ctx context.Context, lang string, now time.Time) (text string, back time.Time, ok bool) {
	if d.DB == nil {
		return "", time.Time{}, false
	}
	ts, err := catalog.GetTeamSettings(ctx, d.DB)
	if err != nil {
		return "", time.Time{}, false // the handoff stands; the hours are a courtesy
	}
	open, next := ts.Hours.NextOpen(now)
	if open || next.IsZero() {
		return "", time.Time{}, false
	}
	text, err = AwayText(lang, now, next)
	return text, next, err == nil
}

// AwayText is the sentence that says when the team is back (next, in its
// zone) as of now, in lang.
func AwayText(lang string, now, next time.Time) (string, error) {
	local := now.In(next.Location())
	clock := next.Format("15:04")
	var when string
	var err error
	switch days := calendarDays(local, next); days {
	case 0:
		when, err = locale.Text(lang, "team.when_today", map[string]string{"Time": clock})
	case 1:
		when, err = locale.Text(lang, "team.when_tomorrow", map[string]string{"Time": clock})
	default:
		day := locale.Word(lang, "team.day_"+strconv.Itoa(int(next.Weekday())))
		when, err = locale.Text(lang, "team.when_day", map[string]string{"Day": day, "Time": clock})
	}
	if err != nil {
		return "", err
	}
	text, err := locale.Text(lang, "team.away", map[string]string{"When": when, "Zone": next.Location().String()})
	if err != nil {
		return "", fmt.Errorf("engine: away text: %w", err)
	}
	return text, nil
}

// calendarDays is how many dates b is after a (both in b's zone).
func calendarDays(a, b time.Time) int {
	da := time.Date(a.Year(), a.Month(), a.Day(), 0, 0, 0, 0, time.UTC)
	db := time.Date(b.Year(), b.Month(), b.Day(), 0, 0, 0, 0, time.UTC)
	return int(db.Sub(da).Hours() / 24)
}
