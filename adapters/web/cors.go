package web

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Origins is the allowlist of web pages (scheme://host[:port]) whose
// scripts may call the chat API from another origin: the embedded
// widget's host sites (WEB_CHAT_ORIGINS). The shop's own origin — its
// public URL, or the host the request was made to — is always allowed.
// The session id travels in the body or query, never as a cookie, and no
// credentials are allowed, so CORS opens no CSRF surface.
type Origins struct {
	own     string          // the shop's public origin, "" when unknown
	allowed map[string]bool // normalised origins; "*" allows any
}

// ParseOrigins reads a comma-separated allowlist ("https://a.example,
// https://b.example:8443", or "*" for any origin); own is the shop's
// public URL ("" when unset). Paths, queries and bad schemes are refused.
func ParseOrigins(list, own string) (*Origins, error) {
	o := &Origins{allowed: map[string]bool{}}
	if own != "" {
		n, err := normalOrigin(own)
		if err != nil {
			return nil, fmt.Errorf("public URL %q: %w", own, err)
		}
		o.own = n
	}
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if s == "*" {
			o.allowed["*"] = true
			continue
		}
		n, err := normalOrigin(s)
		if err != nil {
			return nil, fmt.Errorf("WEB_CHAT_ORIGINS: %q: %w", s, err)
		}
		o.allowed[n] = true
	}
	return o, nil
}

// normalOrigin is s as a browser sends it in Origin: lower-case
// scheme://host[:port], without a default port or trailing slash.
func normalOrigin(s string) (string, error) {
	u, err := url.Parse(strings.TrimSuffix(s, "/"))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("want scheme://host[:port], e.g. https://shop.example.com")
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("an origin has no path, query or user, e.g. https://shop.example.com")
	}
	host := strings.ToLower(u.Host)
	host = strings.TrimSuffix(host, map[string]string{"http": ":80", "https": ":443"}[u.Scheme])
	return strings.ToLower(u.Scheme) + "://" + host, nil
}

// List is the allowlist as configured (WEB_CHAT_ORIGINS), sorted, for
// the panel's embed snippet; the shop's own origin is allowed beside it.
func (o *Origins) List() []string {
	out := make([]string, 0, len(o.allowed))
	for s := range o.allowed {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// Allowed reports whether a request from origin may use the chat API. A
// request without Origin (not a browser's cross-origin call) is allowed;
// so is one from the host it was made to.
func (o *Origins) Allowed(r *http.Request, origin string) bool {
	if origin == "" || o.allowed["*"] {
		return true
	}
	n, err := normalOrigin(origin)
	if err != nil {
		return false
	}
	if n == o.own || o.allowed[n] {
		return true
	}
	// Same origin: the page came from this very host.
	host := strings.ToLower(r.Host)
	return n == "http://"+host || n == "https://"+host
}

// corsMaxAge is how long a browser may cache a preflight's answer.
const corsMaxAge = "600"

// Wrap guards a chat API handler: a preflight (OPTIONS) from an allowed
// origin is answered 204 with the methods and headers the widget uses; a
// request from an allowed origin gets Access-Control-Allow-Origin; one
// from any other origin is refused 403 with a JSON error that names the
// origin and the setting, before anything runs. That refusal carries
// Access-Control-Allow-Origin (a preflight's does not), so the widget can
// read it and log it to the console.
func (o *Origins) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		w.Header().Add("Vary", "Origin")
		if !o.Allowed(r, origin) {
			// The refusal itself is readable by the page (nothing ran), so
			// the widget can log why; a refused preflight stays opaque.
			if r.Method != http.MethodOptions {
				w.Header().Set("Access-Control-Allow-Origin", clipOrigin(origin))
			}
			writeError(w, http.StatusForbidden, fmt.Sprintf(
				"origin %s may not use this shop's chat: add it to WEB_CHAT_ORIGINS on the shop's server", clipOrigin(origin)))
			return
		}
		if origin != "" {
			w.Header().Set("Access-Control-Allow-Origin", origin)
			w.Header().Set("Access-Control-Expose-Headers", "Retry-After")
		}
		if r.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
			w.Header().Set("Access-Control-Allow-Headers", "Content-Type, Accept, Idempotency-Key, Last-Event-ID")
			w.Header().Set("Access-Control-Max-Age", corsMaxAge)
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// clipOrigin keeps an echoed Origin short and printable.
func clipOrigin(s string) string {
	if len(s) > 100 {
		s = s[:100]
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e {
			return '?'
		}
		return r
	}, s)
}
