package storefront

import (
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"github.com/uptrace/bun"
)

// Options configure the storefront.
type Options struct {
	// DB is the catalog.
	DB bun.IDB
	// ShopName gives the shop's name as the merchant set it ("" reads
	// "Shopbot").
	ShopName func(context.Context) string
	// PublicURL is the shop's public address (PUBLIC_URL); empty takes
	// the host of each request, https when Secure says the request came
	// over TLS (directly or through a trusted proxy).
	PublicURL string
	Secure    func(*http.Request) bool
	// Widget puts the web chat widget on product pages.
	Widget bool
	// Lang picks the page's language from a browser's language tag, and
	// Word gives a key's text in it (the text catalogue, engine/locale);
	// nil reads English keys as they are.
	Lang func(tag string) string
	Word func(lang, key string) string
	Log  *slog.Logger
}

// Server serves the feeds and the product pages.
type Server struct{ o Options }

// New returns the storefront.
func New(o Options) *Server {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return &Server{o: o}
}

// A format is one feed's encoding.
type format struct {
	name, contentType string
	open              func(io.Writer, *Shop) (itemWriter, error)
}

// itemWriter writes rows as they are read, then the feed's end.
type itemWriter interface {
	Items([]Item) error
	Close() error
}

var (
	formatOpenAIJSON = format{"openai-json", "application/json; charset=utf-8",
		func(w io.Writer, s *Shop) (itemWriter, error) { return newOpenAIJSON(w, s), nil }}
	formatOpenAICSV = format{"openai-csv", "text/csv; charset=utf-8",
		func(w io.Writer, s *Shop) (itemWriter, error) { return newOpenAICSV(w, s) }}
	formatGoogleXML = format{"google-xml", "application/rss+xml; charset=utf-8",
		func(w io.Writer, s *Shop) (itemWriter, error) { return newGoogleXML(w, s) }}
)

// OpenAIJSON serves the OpenAI feed as JSON (/feeds/products.json).
func (s *Server) OpenAIJSON() http.Handler { return s.feed(formatOpenAIJSON) }

// OpenAICSV serves the OpenAI feed as CSV (/feeds/products.csv).
func (s *Server) OpenAICSV() http.Handler { return s.feed(formatOpenAICSV) }

// GoogleXML serves the Google Merchant Center feed (/feeds/google.xml).
func (s *Server) GoogleXML() http.Handler { return s.feed(formatGoogleXML) }

// feed answers a feed request: 304 when the client's copy is current,
// else the feed streamed from the catalog, gzipped when the client takes
// it. An error half-way aborts the response, so a client never mistakes a
// cut feed for a whole one.
func (s *Server) feed(f format) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		version, err := Version(ctx, s.o.DB)
		if err != nil {
			s.fail(w, r, "read the catalog version", err)
			return
		}
		base := s.baseURL(r)
		gz := acceptsGzip(r)
		etag := etagOf(f.name, version, base, gz)
		h := w.Header()
		h.Set("ETag", etag)
		h.Set("Cache-Control", "public, max-age=300, must-revalidate")
		h.Set("Vary", "Accept-Encoding")
		if matches(r.Header.Get("If-None-Match"), etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		shop, err := readShop(ctx, s.o.DB, s.shopName(ctx), base)
		if err != nil {
			s.fail(w, r, "read the shop", err)
			return
		}
		h.Set("Content-Type", f.contentType)
		h.Set("X-Content-Type-Options", "nosniff")
		if gz {
			h.Set("Content-Encoding", "gzip")
		}
		if r.Method == http.MethodHead {
			return
		}
		out := io.Writer(w)
		var zw *gzip.Writer
		if gz {
			zw, _ = gzip.NewWriterLevel(w, gzip.BestSpeed)
			out = zw
		}
		fw, err := f.open(out, &shop)
		if err == nil {
			err = EachItem(ctx, s.o.DB, fw.Items)
		}
		if err == nil {
			err = fw.Close()
		}
		if err == nil && zw != nil {
			err = zw.Close()
		}
		if err != nil {
			s.o.Log.ErrorContext(ctx, "storefront: feed cut short", "feed", f.name, "err", err)
			panic(http.ErrAbortHandler)
		}
	})
}

// fail answers an error before anything was written.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, what string, err error) {
	s.o.Log.ErrorContext(r.Context(), "storefront: "+what, "err", err)
	http.Error(w, "The catalog cannot be read right now; try again shortly.", http.StatusServiceUnavailable)
}

func (s *Server) shopName(ctx context.Context) string {
	if s.o.ShopName != nil {
		if n := s.o.ShopName(ctx); n != "" {
			return n
		}
	}
	return "Shopbot"
}

// baseURL is the shop's public address: PUBLIC_URL, else the request's
// own scheme and host.
func (s *Server) baseURL(r *http.Request) string {
	if s.o.PublicURL != "" {
		return strings.TrimSuffix(s.o.PublicURL, "/")
	}
	scheme := "http"
	if r.TLS != nil || (s.o.Secure != nil && s.o.Secure(r)) {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// etagOf is a strong validator of one representation: the feed, the
// catalog's version, the address links are made against, and the
// encoding.
func etagOf(feed, version, base string, gz bool) string {
	sum := sha256.Sum256([]byte(feed + "|" + version + "|" + base))
	tag := feed + "-" + hex.EncodeToString(sum[:10])
	if gz {
		tag += "-gz"
	}
	return `"` + tag + `"`
}

// matches reports whether an If-None-Match header names etag (or *).
func matches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "W/"))
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether the client takes a gzipped body.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			return strings.ReplaceAll(q, " ", "") != "q=0"
		}
	}
	return false
}
