package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// RoundRobin says who automatic assignment picks from.
type RoundRobin string

// The round-robin modes: off (the default: conversations wait in
// "unassigned"), among online agents only, or among every online staff
// member (owners and managers too).
const (
	RoundRobinOff    RoundRobin = "off"
	RoundRobinAgents RoundRobin = "agents"
	RoundRobinStaff  RoundRobin = "staff"
)

// Valid reports whether r is one of the modes.
func (r RoundRobin) Valid() bool {
	return r == RoundRobinOff || r == RoundRobinAgents || r == RoundRobinStaff
}

// TeamSettings are the inbox team's settings, kept in the settings table
// (keys team.*) so every replica reads the same.
type TeamSettings struct {
	RoundRobin RoundRobin
	Hours      BusinessHours
}

// The settings rows of TeamSettings.
const (
	teamRoundRobinKey = "team.round_robin"
	teamHoursKey      = "team.business_hours"
)

// GetTeamSettings reads the team settings; never saved is round robin off
// and always open. A stored value that no longer parses reads as the
// default, so a bad row cannot stop handoffs.
func GetTeamSettings(ctx context.Context, db bun.IDB) (TeamSettings, error) {
	ts := TeamSettings{RoundRobin: RoundRobinOff}
	var rows []setting
	if err := db.NewSelect().Model(&rows).Where("key IN (?)", bun.List([]string{teamRoundRobinKey, teamHoursKey})).Scan(ctx); err != nil {
		return ts, fmt.Errorf("catalog: read team settings: %w", err)
	}
	for _, r := range rows {
		switch r.Key {
		case teamRoundRobinKey:
			if rr := RoundRobin(r.Value); rr.Valid() {
				ts.RoundRobin = rr
			}
		case teamHoursKey:
			if h, err := ParseBusinessHours(r.Value); err == nil {
				ts.Hours = h
			}
		}
	}
	return ts, nil
}

// SaveTeamSettings validates and stores the team settings: a bad mode or
// hours text is ErrInvalid and changes nothing.
func SaveTeamSettings(ctx context.Context, db bun.IDB, rr RoundRobin, hours string, now time.Time) error {
	if !rr.Valid() {
		return fmt.Errorf("catalog: round robin %q: %w: off, agents or staff", rr, ErrInvalid)
	}
	h, err := ParseBusinessHours(hours)
	if err != nil {
		return err
	}
	rows := []setting{{Key: teamRoundRobinKey, Value: string(rr), UpdatedAt: now.UTC()}, {Key: teamHoursKey, Value: h.String(), UpdatedAt: now.UTC()}}
	if _, err := db.NewInsert().Model(&rows).On("CONFLICT (key) DO UPDATE").Set("value = EXCLUDED.value, updated_at = EXCLUDED.updated_at").Exec(ctx); err != nil {
		return fmt.Errorf("catalog: save team settings: %w", err)
	}
	return nil
}
