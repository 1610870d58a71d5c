package admin

import (
	"context"
	"strconv"
	"strings"
	"time"

	"shopbot/catalog"
)

// Sign-in attempts are counted in the database (catalog.Hit), so every
// replica shares the counts and a restart keeps them, and they are
// counted BEFORE the password is compared: an attempt over the limit never
// reaches bcrypt, however many run in parallel. Limits: 5 attempts per
// user name per 15-minute window, whatever the address, and 20 per
// address. Windows are fixed (they start on multiples of 15 minutes).
//
// A successful sign-in does not reset the user's count: a reset would let
// someone guessing a password get 5 more guesses each time the real user
// signs in. The price is that a user who signs in 5 times within a window
// (or whose name an attacker is guessing) waits for the next window.
var (
	signInPerUser = catalog.Limit{Max: 5, Window: 15 * time.Minute}
	signInPerAddr = catalog.Limit{Max: 20, Window: 15 * time.Minute}
)

// maxUserKey bounds the user name kept in a counter's key; longer names
// cannot exist (64 characters at most), so sharing a count is harmless.
const maxUserKey = 100

// countSignIn counts a sign-in attempt from ip for user. When the attempt
// is over a limit it returns what to tell the person and how long to wait
// (wait > 0); the password must then not be compared.
func (s *Server) countSignIn(ctx context.Context, ip, user string) (refusal string, wait time.Duration, err error) {
	now := s.cfg.Now()
	byAddr, err := catalog.Hit(ctx, s.db, "signin:addr:"+ip, signInPerAddr, now)
	if err != nil {
		return "", 0, err
	}
	if !byAddr.Allowed {
		return "Too many sign-in attempts from this address; try again in " + minutes(byAddr.RetryAfter) + ".", waitAtLeast(byAddr.RetryAfter), nil
	}
	name := strings.ToLower(strings.TrimSpace(user))
	if len(name) > maxUserKey {
		name = name[:maxUserKey]
	}
	byUser, err := catalog.Hit(ctx, s.db, "signin:user:"+name, signInPerUser, now)
	if err != nil {
		return "", 0, err
	}
	if err := s.pruner.Maybe(ctx, s.db, now); err != nil {
		s.log.WarnContext(ctx, "sign-in counters not pruned", "err", err)
	}
	if !byUser.Allowed {
		return "Too many sign-in attempts for this user; try again in " + minutes(byUser.RetryAfter) + ".", waitAtLeast(byUser.RetryAfter), nil
	}
	return "", 0, nil
}

// waitAtLeast keeps a refusal's wait positive at a window's very end.
func waitAtLeast(d time.Duration) time.Duration { return max(d, time.Millisecond) }

// minutes is d in whole minutes, rounded up: "1 minute", "4 minutes".
func minutes(d time.Duration) string {
	n := int((d + time.Minute - 1) / time.Minute)
	if n <= 1 {
		return "1 minute"
	}
	return strconv.Itoa(n) + " minutes"
}
