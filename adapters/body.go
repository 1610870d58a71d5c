package adapters

import (
	"errors"
	"fmt"
	"io"
	"net/http"
)

// ErrBodyTooLarge reports a request body over the edge's limit; HTTP
// edges answer it with 413.
var ErrBodyTooLarge = errors.New("request body too large")

// maxDrain bounds how much of an oversized body ReadBody reads and throws
// away: a client still sending then reads the 413 instead of a connection
// reset. Beyond it the connection is simply closed.
const maxDrain = 8 << 20

// ReadBody reads a request body of at most limit bytes, the one way every
// HTTP edge (web chat, Telegram webhook, Slack requests) reads its body.
// A larger body is read on (up to maxDrain) and discarded, the connection
// is marked to close after the response, and the error wraps
// ErrBodyTooLarge.
func ReadBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read request body: %w", err)
	}
	if int64(len(b)) > limit {
		_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, maxDrain))
		w.Header().Set("Connection", "close")
		return nil, fmt.Errorf("%w: over %d bytes", ErrBodyTooLarge, limit)
	}
	return b, nil
}
