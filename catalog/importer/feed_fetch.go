package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"shopbot/catalog"
)

// maxFeedRedirects is how many redirects a feed fetch follows.
const maxFeedRedirects = 5

// errFeedTooBig stops a body past FeedConfig.MaxBytes.
var errFeedTooBig = errors.New("feed body too big")

// errFeedStatus is an answer other than 200 or 304.
type errFeedStatus struct{ code int }

func (e errFeedStatus) Error() string { return fmt.Sprintf("feed answered %d", e.code) }

// newFeedClient fetches over http and https only, redirects included,
// within timeout for the whole exchange (the body's download too).
func newFeedClient(timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout: timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxFeedRedirects {
				return fmt.Errorf("more than %d redirects", maxFeedRedirects)
			}
			return catalog.CheckFeedURL(req.URL.String())
		},
	}
}

// fetch asks for the feed with the validators of the last imported body,
// so an unchanged feed answers 304 without a body. Only 200 and 304 come
// back as a response.
func (s *Scheduler) fetch(ctx context.Context, f catalog.Feed) (*http.Response, error) {
	if err := catalog.CheckFeedURL(f.URL); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.URL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "Shopbot-Feed/1")
	if f.ETag != "" {
		req.Header.Set("If-None-Match", f.ETag)
	}
	if f.LastModified != "" {
		req.Header.Set("If-Modified-Since", f.LastModified)
	}
	resp, err := s.cfg.Client.Do(req)
	if err != nil {
		return nil, err
	}
	switch {
	case resp.StatusCode == http.StatusNotModified, resp.StatusCode == http.StatusOK && resp.ContentLength <= s.cfg.MaxBytes:
		return resp, nil
	case resp.StatusCode == http.StatusOK:
		resp.Body.Close()
		return nil, errFeedTooBig
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10)) // reuse the connection
	resp.Body.Close()
	return nil, errFeedStatus{resp.StatusCode}
}

// limitedBody fails the read that goes past left bytes, so a feed over
// the limit fails as a whole rather than importing as a cut-off file.
type limitedBody struct {
	r    io.Reader
	left int64
}

func (l *limitedBody) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, errFeedTooBig
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return 0, errFeedTooBig
	}
	return n, err
}

// feedFileName names a feed's import job: host and path, never the query
// (it may carry an access token). The path's extension helps detect the
// format.
func feedFileName(u *url.URL) string {
	return u.Host + u.EscapedPath()
}

// feedError is the sentence the panel shows for a failed run.
func feedError(err error, cfg FeedConfig) string {
	var st errFeedStatus
	var dns *net.DNSError
	var nerr net.Error
	switch {
	case errors.Is(err, catalog.ErrInvalid):
		return "The feed URL is not valid: " + reasonOf(err) + "."
	case errors.As(err, &st):
		return fmt.Sprintf("The feed server answered %d %s.", st.code, http.StatusText(st.code))
	case errors.Is(err, errFeedTooBig):
		return "The feed is larger than " + sizeText(cfg.MaxBytes) + "."
	case errors.Is(err, syscall.ECONNREFUSED):
		return "The feed server refused the connection."
	case errors.As(err, &dns):
		return fmt.Sprintf("The feed's host %s was not found.", dns.Name)
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &nerr) && nerr.Timeout():
		return fmt.Sprintf("The feed did not arrive within %s.", cfg.Timeout)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET):
		return "The feed's download was cut off."
	case errors.Is(err, ErrNotTabular):
		return "The feed is not a product file the importer reads: " + displayText(err.Error(), maxReasonRunes) + "."
	}
	return "The feed could not be fetched or imported: " + displayText(err.Error(), maxReasonRunes) + "."
}

// reasonOf is an ErrInvalid error's text after "invalid input: ".
func reasonOf(err error) string {
	_, rest, ok := strings.Cut(err.Error(), catalog.ErrInvalid.Error()+": ")
	if !ok {
		return err.Error()
	}
	return rest
}

// sizeText is a byte limit in MiB, or KiB below one MiB.
func sizeText(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}
