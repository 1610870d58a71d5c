package web_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"shopbot/adapters/web"
)

// TestOriginsPreflightAndCORS: an allowed origin's preflight is answered
// 204 with the methods and headers the widget sends, and its requests
// carry Access-Control-Allow-Origin (never credentials); a page from
// another origin is refused 403 with an error naming the setting, and
// nothing runs; same-origin pages and non-browser clients pass.
func TestOriginsPreflightAndCORS(t *testing.T) {
	o, err := web.ParseOrigins(" https://www.example.com/, http://blog.example.com:8080", "https://shop.example.com")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeEngine{}
	h := o.Wrap(newChat(f))
	do := func(method, origin, host string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, "/api/chat", strings.NewReader(`{"session":"`+session+`","message":"hi"}`))
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		if host != "" {
			r.Host = host
		}
		if method == "OPTIONS" {
			r.Header.Set("Access-Control-Request-Method", "POST")
			r.Header.Set("Access-Control-Request-Headers", "content-type, idempotency-key")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	w := do("OPTIONS", "https://www.example.com", "")
	if w.Code != http.StatusNoContent || w.Header().Get("Access-Control-Allow-Origin") != "https://www.example.com" ||
		!strings.Contains(w.Header().Get("Access-Control-Allow-Headers"), "Idempotency-Key") ||
		!strings.Contains(w.Header().Get("Access-Control-Allow-Methods"), "POST") || w.Header().Get("Access-Control-Max-Age") == "" {
		t.Errorf("preflight: %d %v", w.Code, w.Header())
	}
	if w.Header().Get("Access-Control-Allow-Credentials") != "" {
		t.Error("credentials allowed")
	}
	if len(f.turns) != 0 {
		t.Error("a preflight ran a turn")
	}
	for _, origin := range []string{"https://www.example.com", "http://blog.example.com:8080", "https://shop.example.com", "https://shop.example.com:443"} {
		w := do("POST", origin, "")
		if w.Code != 200 || w.Header().Get("Access-Control-Allow-Origin") != origin || !strings.Contains(w.Header().Get("Vary"), "Origin") {
			t.Errorf("%s: %d %v", origin, w.Code, w.Header())
		}
	}
	if w := do("POST", "", ""); w.Code != 200 || w.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("no Origin: %d %v", w.Code, w.Header())
	}
	if w := do("POST", "http://127.0.0.1:8080", "127.0.0.1:8080"); w.Code != 200 {
		t.Errorf("same origin: %d %s", w.Code, w.Body)
	}
	turns := len(f.turns)
	for _, origin := range []string{"https://evil.example", "http://www.example.com", "https://www.example.com.evil.example", "null", "https://blog.example.com:8080"} {
		for _, m := range []string{"OPTIONS", "POST"} {
			w := do(m, origin, "")
			// The refusal is readable (so the widget can log it); a
			// refused preflight is not, so the browser sends nothing.
			acao := map[string]string{"OPTIONS": "", "POST": origin}[m]
			if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "WEB_CHAT_ORIGINS") || w.Header().Get("Access-Control-Allow-Origin") != acao {
				t.Errorf("%s %s: %d %s %v", m, origin, w.Code, w.Body, w.Header())
			}
		}
	}
	if len(f.turns) != turns {
		t.Error("a refused origin ran a turn")
	}
}

// TestParseOrigins: the allowlist accepts origins and "*", and refuses
// anything else with a message that shows the form it wants.
func TestParseOrigins(t *testing.T) {
	any, err := web.ParseOrigins("*", "")
	if err != nil || !any.Allowed(httptest.NewRequest("GET", "/", nil), "https://anywhere.example") {
		t.Errorf("* = %v", err)
	}
	o, err := web.ParseOrigins("https://B.example, https://a.example", "")
	if err != nil || strings.Join(o.List(), " ") != "https://a.example https://b.example" {
		t.Errorf("list = %v, %v", o.List(), err)
	}
	for _, bad := range []string{"www.example.com", "ftp://x.example", "https://x.example/path", "https://x.example?q=1", "https://u:p@x.example", "https://"} {
		if _, err := web.ParseOrigins(bad, ""); err == nil || !strings.Contains(err.Error(), "https://") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, err := web.ParseOrigins("", "not a url"); err == nil {
		t.Error("bad public URL accepted")
	}
}
