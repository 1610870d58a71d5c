package openai

// Retries: classifying a failed attempt, Retry-After, backoff with jitter.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"shopbot/catalog/clip"
	"shopbot/engine/llm"
)

// attemptFailure is one failed attempt, classified. reason is safe to log and to
// return: it never holds the API key or prompt text.
type attemptFailure struct {
	status    int // HTTP status; 0 when there was no response
	reason    string
	retryable bool
	after     time.Duration // the server's Retry-After, when hasAfter
	hasAfter  bool
}

func (o *Client) classify(err error) attemptFailure {
	var (
		apiErr    *sdk.Error
		streamErr *ssestream.StreamError
	)
	switch {
	case errors.As(err, &apiErr):
		return o.classifyStatus(apiErr)
	case errors.As(err, &streamErr):
		return attemptFailure{reason: "error event in stream", retryable: true}
	case errors.Is(err, errMalformedChunk):
		return attemptFailure{reason: "malformed stream chunk", retryable: true}
	case errors.Is(err, errAttemptTimeout), errors.Is(err, errTruncated):
		return attemptFailure{reason: err.Error(), retryable: true}
	default:
		// No response at all: refused connection, reset, DNS, TLS. The SDK
		// retries these too; an unknown error is more likely network than bug.
		return attemptFailure{reason: "transport: " + o.scrub(err.Error()), retryable: true}
	}
}

func (o *Client) classifyStatus(e *sdk.Error) attemptFailure {
	f := attemptFailure{status: e.StatusCode, reason: cmp.Or(e.Code, e.Type, http.StatusText(e.StatusCode))}
	if e.Message != "" {
		f.reason += ": " + o.scrub(e.Message)
	}
	switch s := e.StatusCode; {
	case s == http.StatusTooManyRequests:
		// Out of credit is a 429 too, but waiting does not refill the account.
		f.retryable = e.Code != "insufficient_quota" && e.Type != "insufficient_quota"
	case s == http.StatusRequestTimeout, s == http.StatusConflict, s >= 500:
		f.retryable = true
	}
	if e.Response != nil {
		f.after, f.hasAfter = retryAfter(e.Response.Header, time.Now())
	}
	return f
}

// scrub keeps server and transport text short and free of the API key
// (OpenAI echoes a masked key on 401; a proxy might echo it whole).
func (o *Client) scrub(s string) string {
	if o.apiKey != "" {
		s = strings.ReplaceAll(s, o.apiKey, "[redacted]")
	}
	const maxLen = 200
	if cut := clip.Bytes(s, maxLen); len(cut) < len(s) {
		return cut + "…"
	}
	return s
}

// retryAfter reads the server's requested wait: retry-after-ms (OpenAI's
// precise form) first, then Retry-After in seconds or as an HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < float64(time.Hour/time.Millisecond) {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 && secs < float64(time.Hour/time.Second) {
		return time.Duration(secs * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// nextWait decides whether to retry after attempt failed, and how long to
// wait first: the server's Retry-After when given (capped), otherwise
// exponential backoff with full jitter so that many chats hitting one
// rate limit do not retry in lockstep.
func (o *Client) nextWait(ctx context.Context, attempt int, f attemptFailure, emitted bool) (time.Duration, bool) {
	if !f.retryable || emitted || attempt > o.maxRetries {
		return 0, false
	}
	wait := o.jitteredBackoff(attempt)
	if f.hasAfter {
		wait = min(f.after, maxServerWait)
	}
	// Waiting past the caller's deadline only delays the planner's answer.
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
		return wait, false
	}
	return wait, true
}

func (o *Client) jitteredBackoff(attempt int) time.Duration {
	ceiling := o.backoffMax
	if shift := attempt - 1; shift < 30 {
		ceiling = min(o.backoffMin<<shift, o.backoffMax)
	}
	if ceiling <= 0 {
		return 0
	}
	return rand.N(ceiling + 1)
}

func unavailableError(f attemptFailure, attempts int, emitted bool) error {
	what := f.reason
	if f.status != 0 {
		what = fmt.Sprintf("status %d: %s", f.status, f.reason)
	}
	note := fmt.Sprintf("%d attempt(s)", attempts)
	if emitted {
		note += ", after part of the answer was streamed"
	}
	return fmt.Errorf("engine: openai: %w: %s (%s)", llm.ErrModelUnavailable, what, note)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
