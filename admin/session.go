package admin

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/team"
)

// sessionCookie holds the random session token; the database keeps only
// its SHA-256, so a leaked database does not sign anyone in.
const sessionCookie = "shopbot_session"

// session is the signed-in staff member of a request.
type session struct {
	UserID    int64
	Username  string
	Role      team.StaffRole
	CSRFToken string
	tokenHash string
}

type sessionKey struct{}

func sessionFrom(ctx context.Context) *session {
	s, _ := ctx.Value(sessionKey{}).(*session)
	return s
}

func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func hashToken(tok string) string {
	h := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(h[:])
}

// startSession signs u in: a new session row and its cookie.
func (s *Server) startSession(ctx context.Context, w http.ResponseWriter, r *http.Request, u *team.StaffUser) error {
	tok := randomToken()
	now := s.cfg.Now().UTC()
	row := &team.StaffSession{
		TokenHash: hashToken(tok), UserID: u.ID, CSRFToken: randomToken(),
		CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(s.cfg.SessionTTL),
	}
	if err := team.CreateStaffSession(ctx, s.db, row); err != nil {
		return fmt.Errorf("admin: start session: %w", err)
	}
	// Forget expired sessions now and then.
	_ = team.DeleteExpiredStaffSessions(ctx, s.db, now)
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: tok, Path: "/", HttpOnly: true, Secure: s.secure(r),
		SameSite: http.SameSiteLaxMode, MaxAge: int(s.cfg.SessionTTL / time.Second),
	})
	return nil
}

// secure reports whether cookies set in answer to r are Secure: always
// when the panel's public URL is https, else when r reached us over TLS,
// directly or through a trusted proxy that says so.
func (s *Server) secure(r *http.Request) bool {
	return strings.HasPrefix(s.cfg.PublicURL, "https://") || s.cfg.TrustedProxies.Secure(r)
}

// errSignedOut is lookupSession's answer to a request without a live
// session: no cookie, an unknown token, or one expired or idle too long.
var errSignedOut = errors.New("admin: no live session")

// lookupSession returns the request's live session, or errSignedOut.
func (s *Server) lookupSession(r *http.Request) (*session, error) {
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return nil, errSignedOut
	}
	row, err := team.GetStaffSession(r.Context(), s.db, hashToken(c.Value))
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, errSignedOut
	}
	if err != nil {
		return nil, fmt.Errorf("admin: look up session: %w", err)
	}
	now := s.cfg.Now().UTC()
	if row.User == nil || row.User.Disabled() || !now.Before(row.ExpiresAt) || now.Sub(row.LastSeenAt) > s.cfg.SessionIdle {
		_ = team.DeleteStaffSession(r.Context(), s.db, row.TokenHash)
		return nil, errSignedOut
	}
	if now.Sub(row.LastSeenAt) > time.Minute {
		_ = team.TouchStaffSession(r.Context(), s.db, row.TokenHash, now)
	}
	return &session{UserID: row.UserID, Username: row.User.Username, Role: row.User.Role, CSRFToken: row.CSRFToken, tokenHash: row.TokenHash}, nil
}

// headers sets the security headers every panel response carries.
func (s *Server) headers(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' https: http: data:; style-src 'self'; "+
			"script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "same-origin")
		h(w, r)
	}
}

// page requires a session; without one a browser is sent to sign in.
func (s *Server) page(h http.HandlerFunc) http.HandlerFunc {
	return s.headers(func(w http.ResponseWriter, r *http.Request) {
		sess, err := s.lookupSession(r)
		if errors.Is(err, errSignedOut) {
			http.Redirect(w, r, "/admin/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
			return
		}
		if err != nil {
			s.renderError(w, r, err)
			return
		}
		h(w, r.WithContext(context.WithValue(r.Context(), sessionKey{}, sess)))
	})
}

// action requires a session and the session's CSRF token (form field
// csrf, or the X-CSRF-Token header of scripts); otherwise 403 and nothing
// changes.
func (s *Server) action(h http.HandlerFunc) http.HandlerFunc {
	return s.headers(func(w http.ResponseWriter, r *http.Request) {
		sess, err := s.lookupSession(r)
		if errors.Is(err, errSignedOut) {
			s.render(w, r, http.StatusForbidden, "error", "Signed out", "", errorPage{Code: 403, Message: "Your session has ended. Sign in again, then retry."})
			return
		}
		if err != nil {
			s.renderError(w, r, err)
			return
		}
		r = r.WithContext(context.WithValue(r.Context(), sessionKey{}, sess))
		if err := readForm(w, r); err != nil { // bounded, parsed (multipart too) and cleaned
			s.renderError(w, r, err)
			return
		}
		tok := r.Header.Get("X-CSRF-Token")
		if tok == "" {
			tok = r.FormValue("csrf")
		}
		if subtle.ConstantTimeCompare([]byte(tok), []byte(sess.CSRFToken)) != 1 {
			s.render(w, r, http.StatusForbidden, "error", "Forbidden", "", errorPage{Code: 403, Message: "The form was stale or forged (bad CSRF token); nothing was changed. Reload the page and try again."})
			return
		}
		h(w, r)
	})
}

// maxUpload bounds a posted body (import files of 100,000 products and
// more, images); multipart parts beyond 32 MB spill to temporary files.
const maxUpload = 256 << 20
