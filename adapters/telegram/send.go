package telegram

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/go-telegram/bot"
)

// maxAttempts bounds how often one call is retried after 429s.
const maxAttempts = 4

// errChatGone reports a chat the bot can no longer write to (blocked by
// the user, deleted); the message is skipped, not retried.
var errChatGone = errors.New("telegram: chat unreachable")

// call makes one Bot API call for chat: paced when it posts a new message
// (paced), waiting out 429s for retry_after (bounded attempts), recording
// the outcome. A blocked bot or a deleted chat is logged once and skipped.
func (a *Adapter) call(ctx context.Context, chat int64, method string, paced bool, fn func(ctx context.Context) error) error {
	if a.gone(chat) {
		return errChatGone
	}
	if paced {
		if err := a.pacer.wait(ctx, chat); err != nil {
			return err
		}
	}
	for attempt := 1; ; attempt++ {
		err := fn(ctx)
		outcome := outcomeOf(err)
		a.metrics.sends.WithLabelValues(method, outcome).Inc()
		var tooMany *bot.TooManyRequestsError
		switch {
		case err == nil:
			return nil
		case errors.As(err, &tooMany):
			a.metrics.rateLimited.Inc()
			if attempt >= maxAttempts {
				return err
			}
			wait := time.Duration(max(tooMany.RetryAfter, 1)) * time.Second
			a.log.WarnContext(ctx, "telegram rate limit, waiting", "method", method, "chat_id", chat, "retry_after", wait)
			if err := sleep(ctx, wait); err != nil {
				return err
			}
		case (outcome == "blocked" || outcome == "chat_not_found") && chat != 0:
			a.markGone(ctx, chat, outcome)
			return errChatGone
		default:
			return err
		}
	}
}

func outcomeOf(err error) string {
	var tooMany *bot.TooManyRequestsError
	switch {
	case err == nil:
		return "ok"
	case errors.As(err, &tooMany):
		return "rate_limited"
	case errors.Is(err, bot.ErrorForbidden):
		return "blocked"
	case errors.Is(err, bot.ErrorBadRequest) && strings.Contains(err.Error(), "chat not found"):
		return "chat_not_found"
	case errors.Is(err, bot.ErrorBadRequest):
		return "bad_request"
	default:
		return "error"
	}
}

func (a *Adapter) gone(chat int64) bool {
	a.goneMu.Lock()
	defer a.goneMu.Unlock()
	until, ok := a.goneChats[chat]
	return ok && a.now().Before(until)
}

// markGone skips a chat for a while: a user who unblocks the bot and
// writes again is answered after goneFor.
func (a *Adapter) markGone(ctx context.Context, chat int64, why string) {
	a.goneMu.Lock()
	defer a.goneMu.Unlock()
	if _, ok := a.goneChats[chat]; !ok {
		a.log.WarnContext(ctx, "telegram chat unreachable, skipping it", "chat_id", chat, "reason", why)
	}
	a.goneChats[chat] = a.now().Add(goneFor)
}

const goneFor = 10 * time.Minute

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// pacer spaces new messages per chat (GCRA): a burst, then one every
// interval: about 1 per second in private chats and 20 per minute in
// groups, Telegram's documented limits.
type pacer struct {
	mu      sync.Mutex
	tat     map[int64]time.Time // theoretical arrival time per chat
	private time.Duration
	group   time.Duration
	burst   int
}

func newPacer(private, group time.Duration, burst int) *pacer {
	return &pacer{tat: map[int64]time.Time{}, private: private, group: group, burst: max(burst, 1)}
}

func (p *pacer) wait(ctx context.Context, chat int64) error {
	d := p.reserve(chat, time.Now())
	if d <= 0 {
		return nil
	}
	return sleep(ctx, d)
}

// reserve books a slot for chat and returns how long to wait for it.
func (p *pacer) reserve(chat int64, now time.Time) time.Duration {
	interval := p.private
	if chat < 0 { // groups, supergroups and channels have negative ids
		interval = p.group
	}
	if interval <= 0 {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.tat) > 10_000 {
		for k, t := range p.tat {
			if t.Before(now) {
				delete(p.tat, k)
			}
		}
	}
	t := p.tat[chat]
	if t.Before(now) {
		t = now
	}
	earliest := t.Add(-time.Duration(p.burst-1) * interval)
	p.tat[chat] = t.Add(interval)
	return max(earliest.Sub(now), 0)
}
