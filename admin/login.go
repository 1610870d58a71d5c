package admin

import (
	"crypto/subtle"
	"net/http"
	"strconv"
	"strings"

	"shopbot/catalog"
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
		Secure: s.secure(r), SameSite: http.SameSiteStrictMode, MaxAge: 3600})
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
	ip := s.cfg.TrustedProxies.ClientIP(r)
	refusal, wait, err := s.countSignIn(r.Context(), ip, user)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if wait > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
		s.log.WarnContext(r.Context(), "admin sign-in refused: too many attempts", "user", user, "ip", ip)
		p.Error = refusal
		s.renderLogin(w, r, http.StatusTooManyRequests, p)
		return
	}
	u, ok, err := checkPassword(r.Context(), s.db, s.compare, user, pw)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if !ok {
		s.log.WarnContext(r.Context(), "admin sign-in failed", "user", user, "ip", ip)
		p.Error = "Wrong user name or password."
		s.renderLogin(w, r, http.StatusUnauthorized, p)
		return
	}
	if err := s.startSession(r.Context(), w, r, u); err != nil {
		s.renderError(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "admin signed in", "user", u.Username, "ip", ip)
	http.Redirect(w, r, p.Next, http.StatusSeeOther)
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	sess := sessionFrom(r.Context())
	if err := catalog.DeleteStaffSession(r.Context(), s.db, sess.tokenHash); err != nil {
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
