package slack

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// signatureWindow is how far a request's timestamp may be from now.
const signatureWindow = 5 * time.Minute

var (
	errNoSignature  = errors.New("slack: missing X-Slack-Signature or X-Slack-Request-Timestamp")
	errStale        = errors.New("slack: request timestamp outside the five-minute window")
	errBadSignature = errors.New("slack: signature does not match")
)

// verify checks Slack's v0 request signature over body.
func verify(secret string, h http.Header, body []byte, now time.Time) error {
	sig, ts := h.Get("X-Slack-Signature"), h.Get("X-Slack-Request-Timestamp")
	if sig == "" || ts == "" {
		return errNoSignature
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return errNoSignature
	}
	if d := now.Sub(time.Unix(sec, 0)); d > signatureWindow || d < -signatureWindow {
		return errStale
	}
	got, err := hex.DecodeString(strings.TrimPrefix(sig, "v0="))
	if err != nil || !strings.HasPrefix(sig, "v0=") {
		return errBadSignature
	}
	if !hmac.Equal(got, sign(secret, ts, body)) {
		return errBadSignature
	}
	return nil
}

// sign computes the v0 signature of a request.
func sign(secret, ts string, body []byte) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("v0:" + ts + ":"))
	m.Write(body)
	return m.Sum(nil)
}

// Sign returns the X-Slack-Signature header value for a request body sent
// at ts (Unix seconds), as Slack computes it; tests and tools use it to
// build signed requests.
func Sign(secret string, ts int64, body []byte) string {
	return "v0=" + hex.EncodeToString(sign(secret, strconv.FormatInt(ts, 10), body))
}
