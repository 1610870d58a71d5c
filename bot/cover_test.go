package main

import (
	"flag"
	"strings"
	"testing"
	"time"
)

// TestCoverSettings: the lease and notice settings have their defaults,
// and a bad value, or a renewal not shorter than the lease, is a clear
// usage error.
func TestCoverSettings(t *testing.T) {
	cfg, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), nil, envFunc(nil))
	if err != nil {
		t.Fatal(err)
	}
	if l := cfg.cover.lease; l.For != 25*time.Second || l.Renew != 5*time.Second || l.Sweep != 5*time.Second || cfg.cover.noticeTTL != 24*time.Hour {
		t.Errorf("defaults %+v, notice TTL %s", l, cfg.cover.noticeTTL)
	}
	for vars, want := range map[[2]string]string{
		{"INBOX_LEASE", "soon"}:      "INBOX_LEASE must be a duration",
		{"INBOX_LEASE_RENEW", "25s"}: "INBOX_LEASE_RENEW (25s) must be shorter than INBOX_LEASE (25s)",
		{"INBOX_SWEEP", "1ms"}:       "INBOX_SWEEP must be a duration from 100ms",
		{"WEB_NOTICE_TTL", "-1h"}:    "WEB_NOTICE_TTL must be a duration from 1m0s",
	} {
		_, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), nil, envFunc(map[string]string{vars[0]: vars[1]}))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s=%s: %v, want %q", vars[0], vars[1], err, want)
		}
	}
}
