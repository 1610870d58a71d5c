package admin_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"shopbot/admin"
	"shopbot/catalog/catalogtest"
)

// TestClientIP: X-Forwarded-For counts only from a trusted proxy, and then
// only up to the first address that is not a trusted proxy.
func TestClientIP(t *testing.T) {
	proxies, err := admin.ParseTrustedProxies(" 10.0.0.0/8, 192.0.2.7 ,::1")
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		peer, xff, want string
	}{
		"direct, no header":            {"198.51.100.4:5000", "", "198.51.100.4"},
		"untrusted peer's header":      {"198.51.100.4:5000", "203.0.113.9", "198.51.100.4"},
		"trusted proxy":                {"10.1.2.3:5000", "203.0.113.9", "203.0.113.9"},
		"client-forged hops left":      {"10.1.2.3:5000", "1.2.3.4, 203.0.113.9", "203.0.113.9"},
		"chain of trusted proxies":     {"192.0.2.7:443", "1.2.3.4, 203.0.113.9, 10.9.9.9", "203.0.113.9"},
		"all hops trusted":             {"10.1.2.3:5000", "10.0.0.5", "10.0.0.5"},
		"garbage hop":                  {"10.1.2.3:5000", "203.0.113.9, nonsense", "10.1.2.3"},
		"trusted proxy, no header":     {"10.1.2.3:5000", "", "10.1.2.3"},
		"IPv6 loopback proxy":          {"[::1]:5000", "2001:db8::1", "2001:db8::1"},
		"IPv4-mapped peer":             {"[::ffff:10.1.2.3]:5000", "203.0.113.9", "203.0.113.9"},
		"untrusted IPv6 peer's header": {"[2001:db8::2]:5000", "203.0.113.9", "2001:db8::2"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.peer
		if tc.xff != "" {
			r.Header.Set("X-Forwarded-For", tc.xff)
		}
		if got := proxies.ClientIP(r); got != tc.want {
			t.Errorf("%s: ClientIP = %q, want %q", name, got, tc.want)
		}
	}
	for _, bad := range []string{"10.0.0.0/33", "localhost", "1.2.3"} {
		if _, err := admin.ParseTrustedProxies(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("ParseTrustedProxies(%q) = %v, want an error naming it", bad, err)
		}
	}
}

// TestSecureCookies: the session and sign-in cookies are Secure with an
// https PUBLIC_URL, or when a trusted proxy says https; a client's own
// X-Forwarded-Proto changes nothing.
func TestSecureCookies(t *testing.T) {
	trustLoopback := func(c *admin.Config) { c.TrustedProxies, _ = admin.ParseTrustedProxies("127.0.0.0/8") }
	for name, tc := range map[string]struct {
		configure  func(*admin.Config)
		proto      string
		wantSecure bool
	}{
		"plain http":                  {func(*admin.Config) {}, "", false},
		"untrusted X-Forwarded-Proto": {func(*admin.Config) {}, "https", false},
		"trusted X-Forwarded-Proto":   {trustLoopback, "https", true},
		"trusted proxy saying http":   {trustLoopback, "http", false},
		"https PUBLIC_URL":            {func(c *admin.Config) { c.PublicURL = "https://shop.example.com" }, "", true},
		"http PUBLIC_URL":             {func(c *admin.Config) { c.PublicURL = "http://shop.example.com" }, "", false},
	} {
		t.Run(name, func(t *testing.T) {
			p := newPanelConfig(t, catalogtest.SQLiteDemo(t), tc.configure)
			// No cookie jar: it would keep a Secure cookie from plain http.
			client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			cookies := map[string]*http.Cookie{}
			send := func(method, path string, body string) {
				req, _ := http.NewRequest(method, p.srv.URL+path, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				if tc.proto != "" {
					req.Header.Set("X-Forwarded-Proto", tc.proto)
				}
				if c := cookies["shopbot_login_csrf"]; c != nil {
					req.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
				}
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				for _, c := range resp.Cookies() {
					cookies[c.Name] = c
				}
			}
			send("GET", "/admin/login", "")
			tok := cookies["shopbot_login_csrf"]
			if tok == nil {
				t.Fatal("no sign-in CSRF cookie")
			}
			send("POST", "/admin/login", url.Values{"csrf": {tok.Value}, "username": {"admin"}, "password": {testPassword}}.Encode())
			sess := cookies["shopbot_session"]
			if sess == nil {
				t.Fatal("no session cookie")
			}
			if tok.Secure != tc.wantSecure || sess.Secure != tc.wantSecure {
				t.Errorf("Secure: sign-in cookie %v, session cookie %v; want %v", tok.Secure, sess.Secure, tc.wantSecure)
			}
		})
	}
}
