package admin

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// loginCSRFCookie carries the sign-in form's CSRF token (double submit:
// there is no session yet to keep it in).
const loginCSRFCookie = "shopbot_login_csrf"

type loginPage struct {
	Next  string
	User  string
	Error string
	Token string
}

func (s *Server) loginPage(w http.ResponseWriter, r *http.Request) {
	if sess, _ := s.lookupSession(r); sess != nil {
		http.Redirect(w, r, "/admin/", http.StatusSeeOther)
		return
	}
	s.renderLogin(w, r, http.StatusOK, loginPage{Next: safeNext(r.URL.Query().Get("next"))})
}

func (s *Server) renderLogin(w http.ResponseWriter, r *http.Request, code int, p loginPage) {
	p.Token = randomToken()
	http.SetCookie(w, &http.Cookie{Name: loginCSRFCookie, Value: p.Token, Path: "/admin/login", HttpOnly: true,
		Secure: secure(r), SameSite: http.SameSiteStrictMode, MaxAge: 3600})
	s.render(w, r, code, "login", "Sign in", "", p)
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	user, pw := strings.TrimSpace(r.PostFormValue("username")), r.PostFormValue("password")
	p := loginPage{Next: safeNext(r.PostFormValue("next")), User: user}
	c, err := r.Cookie(loginCSRFCookie)
	if err != nil || c.Value == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(r.PostFormValue("csrf"))) != 1 {
		p.Error = "The sign-in form expired. Please try again."
		s.renderLogin(w, r, http.StatusForbidden, p)
		return
	}
	ip := clientIP(r)
	if wait := s.logins.blocked(ip, user, s.cfg.Now()); wait > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
		p.Error = "Too many failed sign-ins. Try again in " + wait.Round(time.Second).String() + "."
		s.renderLogin(w, r, http.StatusTooManyRequests, p)
		return
	}
	u, ok, err := checkPassword(r.Context(), s.db, user, pw)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if !ok {
		s.logins.fail(ip, user, s.cfg.Now())
		s.log.WarnContext(r.Context(), "admin sign-in failed", "user", user, "ip", ip)
		p.Error = "Wrong user name or password."
		s.renderLogin(w, r, http.StatusUnauthorized, p)
		return
	}
	s.logins.reset(ip, user)
	if err := s.startSession(r.Context(), w, r, u); err != nil {
		s.renderError(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "admin signed in", "user", u.Username, "ip", ip)
	http.Redirect(w, r, p.Next, http.StatusSeeOther)
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	sess := sessionFrom(r.Context())
	if _, err := s.db.NewDelete().Model((*staffSession)(nil)).Where("token_hash = ?", sess.tokenHash).Exec(r.Context()); err != nil {
		s.renderError(w, r, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Path: "/", MaxAge: -1, HttpOnly: true, Secure: secure(r), SameSite: http.SameSiteLaxMode})
	http.Redirect(w, r, "/admin/login", http.StatusSeeOther)
}

// safeNext keeps redirects after sign-in inside the panel.
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/admin/") || strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\r\n") {
		return "/admin/"
	}
	return next
}

func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// loginLimiter slows password guessing: after 5 failures for one user
// from one address, or 20 from one address, sign-in from there waits
// until the oldest failure is 15 minutes old.
type loginLimiter struct {
	mu    sync.Mutex
	fails map[string][]time.Time
}

const (
	loginWindow     = 15 * time.Minute
	loginMaxPerUser = 5
	loginMaxPerAddr = 20
	loginMaxTracked = 10_000
)

func newLoginLimiter() *loginLimiter { return &loginLimiter{fails: map[string][]time.Time{}} }

func (l *loginLimiter) blocked(ip, user string, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	wait := time.Duration(0)
	for key, max := range map[string]int{ip + "\x00" + strings.ToLower(user): loginMaxPerUser, ip: loginMaxPerAddr} {
		ts := l.recent(key, now)
		if len(ts) >= max {
			wait = maxDuration(wait, ts[len(ts)-max].Add(loginWindow).Sub(now))
		}
	}
	return wait
}

func (l *loginLimiter) recent(key string, now time.Time) []time.Time {
	ts := l.fails[key]
	i := 0
	for i < len(ts) && now.Sub(ts[i]) >= loginWindow {
		i++
	}
	ts = ts[i:]
	if len(ts) == 0 {
		delete(l.fails, key)
	} else {
		l.fails[key] = ts
	}
	return ts
}

func (l *loginLimiter) fail(ip, user string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.fails) > loginMaxTracked {
		for k := range l.fails {
			l.recent(k, now)
		}
	}
	for _, key := range []string{ip + "\x00" + strings.ToLower(user), ip} {
		l.fails[key] = append(l.recent(key, now), now)
	}
}

func (l *loginLimiter) reset(ip, user string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.fails, ip+"\x00"+strings.ToLower(user))
}

func maxDuration(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}
