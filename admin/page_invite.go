package admin

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"

	"shopbot/catalog"
	"shopbot/catalog/team"
)

// inviteCSRFCookie carries the invitation form's CSRF token (double
// submit: the invited person has no session yet).
const inviteCSRFCookie = "shopbot_invite_csrf"

// invitePage is /admin/invite/{token}: the invited person picks a user
// name and password.
type invitePage struct {
	Token string // the link's token (the form posts back to the link)
	CSRF  string
	Role  team.StaffRole
	User  string
	Error string
	Gone  bool // the link is unknown, expired or used
}

func (s *Server) invitePage(w http.ResponseWriter, r *http.Request) {
	tok := r.PathValue("token")
	inv, err := team.UsableStaffInvite(r.Context(), s.db, hashToken(tok), s.cfg.Now())
	if errors.Is(err, team.ErrInviteUnusable) {
		s.renderInvite(w, r, http.StatusGone, invitePage{Gone: true})
		return
	}
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.renderInvite(w, r, http.StatusOK, invitePage{Token: tok, Role: inv.Role})
}

func (s *Server) renderInvite(w http.ResponseWriter, r *http.Request, code int, p invitePage) {
	if !p.Gone {
		p.CSRF = randomToken()
		http.SetCookie(w, &http.Cookie{Name: inviteCSRFCookie, Value: p.CSRF, Path: "/admin/invite/", HttpOnly: true,
			Secure: s.secure(r), SameSite: http.SameSiteStrictMode, MaxAge: 3600})
	}
	s.render(w, r, code, "invite", "Join the team", "", p)
}

// acceptInvite creates the invited user with the invitation's role and
// signs them in; the link cannot be used again.
func (s *Server) acceptInvite(w http.ResponseWriter, r *http.Request) {
	if err := readSignInForm(w, r); err != nil {
		s.renderError(w, r, err)
		return
	}
	tok, user, pw := r.PathValue("token"), strings.TrimSpace(r.PostFormValue("username")), r.PostFormValue("password")
	p := invitePage{Token: tok, User: user}
	inv, err := team.UsableStaffInvite(r.Context(), s.db, hashToken(tok), s.cfg.Now())
	if errors.Is(err, team.ErrInviteUnusable) {
		s.renderInvite(w, r, http.StatusGone, invitePage{Gone: true})
		return
	}
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p.Role = inv.Role
	c, err := r.Cookie(inviteCSRFCookie)
	if err != nil || c.Value == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(r.PostFormValue("csrf"))) != 1 {
		p.Error = "The form expired. Please try again."
		s.renderInvite(w, r, http.StatusForbidden, p)
		return
	}
	if err := checkNewUser(user, pw); err != nil {
		p.Error = err.Error()
		s.renderInvite(w, r, http.StatusBadRequest, p)
		return
	}
	h, err := hashPassword(pw)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	u, err := team.AcceptStaffInvite(r.Context(), s.db, hashToken(tok), user, h, s.cfg.Now())
	switch {
	case errors.Is(err, team.ErrInviteUnusable):
		s.renderInvite(w, r, http.StatusGone, invitePage{Gone: true})
		return
	case errors.Is(err, catalog.ErrConflict):
		p.Error = "A user named " + user + " already exists. Choose another name."
		s.renderInvite(w, r, http.StatusConflict, p)
		return
	case err != nil:
		s.renderError(w, r, err)
		return
	}
	s.recordAudit(r, u.ID, u.Username, "staff.join", u.Username, "role="+string(u.Role))
	if err := s.startSession(r.Context(), w, r, u); err != nil {
		s.renderError(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "staff user joined by invitation", "user", u.Username, "role", string(u.Role))
	http.Redirect(w, r, "/admin/", http.StatusSeeOther)
}
