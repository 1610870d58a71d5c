package admin

import (
	"crypto/subtle"
	"net/http"
	"strings"

	"shopbot/catalog/team"
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
	if _, err := s.lookupSession(r); err == nil {
		http.Redirect(w, r, "/admin/", http.StatusSeeOther)
		return
	}
	s.renderLogin(w, r, http.StatusOK, loginPage{Next: safeNext(r.URL.Query().Get("next"))})
}

func (s *Server) renderLogin(w http.ResponseWriter, r *http.Request, code int, p loginPage) {
	p.Token = randomToken()
	http.SetCookie(w, &http.Cookie{Name: loginCSRFCookie, Value: p.Token, Path: "/admin/login", HttpOnly: true,
		Secure: s.secure(r), SameSite: http.SameSiteStrictMode, MaxAge: 3600})
	s.render(w, r, code, "login", "Sign in", "", p)
}

// login checks a sign-in: the form (bounded, not counted when refused),
// its CSRF token, the limits (login_limit.go), then the password. A
// success remembers the browser as a known device for the user.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	if err := readSignInForm(w, r); err != nil {
		s.renderError(w, r, err)
		return
	}
	user, pw := strings.TrimSpace(r.PostFormValue("username")), r.PostFormValue("password")
	p := loginPage{Next: safeNext(r.PostFormValue("next")), User: user}
	c, err := r.Cookie(loginCSRFCookie)
	if err != nil || c.Value == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(r.PostFormValue("csrf"))) != 1 {
		p.Error = "The sign-in form expired. Please try again."
		s.renderLogin(w, r, http.StatusForbidden, p)
		return
	}
	ip, name := s.cfg.TrustedProxies.ClientIP(r), normalUser(user)
	device := s.knownDevice(r, name)
	refusal, err := s.admitSignIn(r.Context(), ip, name, device)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if refusal != nil {
		w.Header().Set("Retry-After", retryAfter(refusal.wait))
		s.log.WarnContext(r.Context(), "admin sign-in refused: too many attempts", "user", user, "ip", ip, "known_device", device != "")
		p.Error = refusal.msg
		s.renderLogin(w, r, http.StatusTooManyRequests, p)
		return
	}
	u, ok, err := checkPassword(r.Context(), s.db, s.compare, user, pw)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if !ok {
		s.log.WarnContext(r.Context(), "admin sign-in failed", "user", user, "ip", ip, "known_device", device != "")
		p.Error = "Wrong user name or password."
		s.renderLogin(w, r, http.StatusUnauthorized, p)
		return
	}
	if u.Disabled() {
		s.log.WarnContext(r.Context(), "admin sign-in refused: user disabled", "user", user, "ip", ip)
		p.Error = "This account is disabled. Ask the shop's owner to enable it."
		s.renderLogin(w, r, http.StatusForbidden, p)
		return
	}
	if err := s.startSession(r.Context(), w, r, u); err != nil {
		s.renderError(w, r, err)
		return
	}
	s.signedIn(r.Context(), name, device)
	s.rememberDevice(w, r, name, device)
	s.log.InfoContext(r.Context(), "admin signed in", "user", u.Username, "ip", ip, "known_device", device != "")
	http.Redirect(w, r, p.Next, http.StatusSeeOther)
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	sess := sessionFrom(r.Context())
	if err := team.DeleteStaffSession(r.Context(), s.db, sess.tokenHash); err != nil {
		s.renderError(w, r, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Path: "/", MaxAge: -1, HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteLaxMode})
	http.Redirect(w, r, "/admin/login", http.StatusSeeOther)
}

// safeNext keeps redirects after sign-in inside the panel.
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/admin/") || strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\r\n") {
		return "/admin/"
	}
	return next
}
