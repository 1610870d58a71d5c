package admin

import (
	"context"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"shopbot/catalog"
)

// Sign-in attempts are limited in the database (catalog.Hit and
// catalog.ClaimDelay), so every replica shares the limits and a restart
// keeps them, and they are applied BEFORE the password is compared: an
// attempt refused never reaches bcrypt, however many run in parallel.
//
// The limits protect the owner rather than the attacker: nothing ever
// locks a user out.
//
//   - Per user name, a delay that grows: after an attempt, the next one
//     for that name is not evaluated for 1 s, then 2 s, 4 s … up to 60 s
//     (signInPerUser); a refused attempt is answered 429 with Retry-After
//     and does not lengthen the wait. A success clears the delay; an hour
//     without attempts forgets it. So a guesser gets at most one guess a
//     minute per name, and the owner, without a known device, waits at
//     most a minute for an attempt to be evaluated.
//   - Per address and per address range (IPv4 /24, IPv6 /64), a hard
//     limit in a fixed 15-minute window (signInPerAddr, signInPerRange):
//     one address or one network cannot spray guesses over many names.
//   - A known device (login_device.go) — a browser that signed in as the
//     user before and carries a signed cookie saying so — skips the three
//     limits above: strangers' failures never slow it. It has its own
//     delay instead (signInPerDevice), so a stolen cookie is worth no
//     more guesses than a stranger gets.
var (
	signInPerUser   = catalog.Backoff{Base: time.Second, Max: time.Minute, Forget: time.Hour}
	signInPerDevice = catalog.Backoff{Base: time.Second, Max: time.Minute, Forget: time.Hour}
	signInPerAddr   = catalog.Limit{Max: 20, Window: 15 * time.Minute}
	signInPerRange  = catalog.Limit{Max: 100, Window: 15 * time.Minute}
)

// maxUserKey bounds the user name kept in a key; longer names cannot
// exist (64 characters at most), so sharing a key is harmless.
const maxUserKey = 100

// signInRefusal is an attempt not evaluated: what to tell the person and
// how long to wait.
type signInRefusal struct {
	msg  string
	wait time.Duration
}

// signInKey is the key of an attempt's delay: the known device's when the
// request carries one for user, else the user name's.
func signInKey(user, device string) string {
	if device != "" {
		return "signin:device:" + device
	}
	return "signin:user:" + user
}

// normalUser is the user name as limits key it.
func normalUser(user string) string {
	name := strings.ToLower(strings.TrimSpace(user))
	if len(name) > maxUserKey {
		name = name[:maxUserKey]
	}
	return name
}

// admitSignIn applies the limits to an attempt from ip for user, from the
// known device device ("" for none). A refusal means the password must
// not be compared.
func (s *Server) admitSignIn(ctx context.Context, ip, user, device string) (*signInRefusal, error) {
	now := s.cfg.Now()
	if err := s.pruner.Maybe(ctx, s.db, now); err != nil {
		s.log.WarnContext(ctx, "sign-in limits not pruned", "err", err)
	}
	if device == "" {
		if ref, err := s.hitSignIn(ctx, "signin:addr:"+ip, signInPerAddr, now, "this address"); ref != nil || err != nil {
			return ref, err
		}
		if ref, err := s.hitSignIn(ctx, "signin:net:"+addrRange(ip), signInPerRange, now, "this network"); ref != nil || err != nil {
			return ref, err
		}
	}
	backoff, who := signInPerUser, "this user"
	if device != "" {
		backoff, who = signInPerDevice, "this browser"
	}
	claim, err := catalog.ClaimDelay(ctx, s.db, signInKey(user, device), backoff, now)
	if err != nil || claim.Allowed {
		return nil, err
	}
	return &signInRefusal{wait: claim.Wait,
		msg: "Sign-in for " + who + " is slowed down after recent attempts; try again in " + seconds(claim.Wait) + "."}, nil
}

// hitSignIn counts an attempt against a hard limit.
func (s *Server) hitSignIn(ctx context.Context, key string, lim catalog.Limit, now time.Time, who string) (*signInRefusal, error) {
	res, err := catalog.Hit(ctx, s.db, key, lim, now)
	if err != nil || res.Allowed {
		return nil, err
	}
	wait := max(res.RetryAfter, time.Millisecond)
	return &signInRefusal{wait: wait, msg: "Too many sign-in attempts from " + who + "; try again in " + minutes(wait) + "."}, nil
}

// signedIn clears the delay of the key the successful attempt used.
func (s *Server) signedIn(ctx context.Context, user, device string) {
	if err := catalog.ClearDelay(ctx, s.db, signInKey(user, device)); err != nil {
		s.log.WarnContext(ctx, "sign-in delay not cleared", "err", err)
	}
}

// addrRange is the network an address belongs to for the range limit:
// its /24 (IPv4) or /64 (IPv6), or the address itself if it is not one.
func addrRange(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	bits := 64
	if a.Unmap().Is4() {
		a, bits = a.Unmap(), 24
	}
	p, _ := a.Prefix(bits)
	return p.String()
}

// retryAfter is a wait as a Retry-After value: whole seconds, rounded up.
func retryAfter(d time.Duration) string {
	return strconv.Itoa(int((d + time.Second - 1) / time.Second))
}

// seconds is d in whole seconds, rounded up: "1 second", "4 seconds".
func seconds(d time.Duration) string {
	if n := retryAfter(d); n != "1" {
		return n + " seconds"
	}
	return "1 second"
}

// minutes is d in whole minutes, rounded up: "1 minute", "4 minutes".
func minutes(d time.Duration) string {
	n := int((d + time.Minute - 1) / time.Minute)
	if n <= 1 {
		return "1 minute"
	}
	return strconv.Itoa(n) + " minutes"
}
