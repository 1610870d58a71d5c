package slack

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/slack-go/slack"
)

// maxRateLimitWaits bounds how often one call waits out a 429.
const maxRateLimitWaits = 3

// api is the Slack Web API as the adapter uses it: every call goes
// through do, which counts it and honours Retry-After — after a 429 no
// call of that method is made before the time Slack asked for.
type api struct {
	c       *slack.Client
	metrics *metrics
	now     func() time.Time

	mu      sync.Mutex
	blocked map[string]time.Time // method → no calls before
	names   map[string]string    // user id → display name
	locales map[string]string    // user id → Slack locale ("ru-RU"), when users.info gave one
}

func newAPI(c *slack.Client, m *metrics, now func() time.Time) *api {
	return &api{c: c, metrics: m, now: now, blocked: map[string]time.Time{}, names: map[string]string{}, locales: map[string]string{}}
}

// do runs one API call of method, waiting out rate limits.
func (a *api) do(ctx context.Context, method string, call func(ctx context.Context) error) error {
	for attempt := 0; ; attempt++ {
		if err := a.waitTurn(ctx, method); err != nil {
			return err
		}
		err := call(ctx)
		var rl *slack.RateLimitedError
		switch {
		case err == nil:
			a.metrics.apiCalls.WithLabelValues(method, "ok").Inc()
			return nil
		case errors.As(err, &rl):
			a.metrics.apiCalls.WithLabelValues(method, "rate_limited").Inc()
			a.block(method, rl.RetryAfter)
			if attempt >= maxRateLimitWaits {
				return err
			}
		default:
			a.metrics.apiCalls.WithLabelValues(method, "error").Inc()
			return err
		}
	}
}

func (a *api) block(method string, d time.Duration) {
	if d <= 0 {
		d = time.Second
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if until := a.now().Add(d); until.After(a.blocked[method]) {
		a.blocked[method] = until
	}
}

// waitTurn sleeps until method may be called again.
func (a *api) waitTurn(ctx context.Context, method string) error {
	a.mu.Lock()
	until := a.blocked[method]
	a.mu.Unlock()
	d := until.Sub(a.now())
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// slackError is Slack's error string of an API failure ("unknown_method"),
// or "".
func slackError(err error) string {
	var se slack.SlackErrorResponse
	if errors.As(err, &se) {
		return se.Err
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// maxNames bounds the display-name cache.
const maxNames = 10_000

// userName returns a member's display name (users.info, cached); on
// failure the fallback (e.g. the handle from the payload).
func (a *api) userName(ctx context.Context, userID, fallback string) string {
	a.mu.Lock()
	name, ok := a.names[userID]
	a.mu.Unlock()
	if ok {
		return name
	}
	var u *slack.User
	err := a.do(ctx, "users.info", func(ctx context.Context) (err error) {
		u, err = a.c.GetUserInfoContext(ctx, userID)
		return err
	})
	var se slack.SlackErrorResponse
	switch {
	case errors.As(err, &se):
		name = fallback // user_not_found, missing_scope: asking again will not help
	case err != nil:
		return fallback
	default:
		name = firstNonEmpty(u.Profile.DisplayName, u.RealName, u.Name, fallback)
	}
	a.mu.Lock()
	if len(a.names) >= maxNames {
		clear(a.names)
		clear(a.locales)
	}
	a.names[userID] = name
	if u != nil && u.Locale != "" {
		a.locales[userID] = u.Locale
	}
	a.mu.Unlock()
	return name
}

// userLocale is a member's Slack locale ("ru-RU") from users.info
// (include_locale, cached with the name), or "" when Slack gave none.
func (a *api) userLocale(ctx context.Context, userID string) string {
	a.userName(ctx, userID, userID)
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.locales[userID]
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
