package admin

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/team"
)

// inviteTTL is how long an invitation link can be used.
const inviteTTL = 72 * time.Hour

// staffPage is /admin/staff: the users with their roles, the open
// invitations, and the forms to invite or add someone.
type staffPage struct {
	Users   []team.StaffUser
	Invites []team.StaffInvite
	Roles   []team.StaffRole
	Me      int64
	// NewLink is the invitation just made: shown this once, never stored.
	NewLink string
	NewRole team.StaffRole
	Expires time.Time
}

func (s *Server) staffPage(w http.ResponseWriter, r *http.Request) {
	s.renderStaff(w, r, http.StatusOK, staffPage{})
}

func (s *Server) renderStaff(w http.ResponseWriter, r *http.Request, code int, p staffPage) {
	var err error
	if p.Users, err = team.ListStaffUsers(r.Context(), s.db); err != nil {
		s.renderError(w, r, err)
		return
	}
	if p.Invites, err = team.ListStaffInvites(r.Context(), s.db, s.cfg.Now()); err != nil {
		s.renderError(w, r, err)
		return
	}
	p.Roles, p.Me = team.StaffRoles, sessionFrom(r.Context()).UserID
	s.render(w, r, code, "staff", "Staff", "staff", p)
}

// formRole is the role a form chose; none chosen is an agent, the role
// that can do least.
func formRole(r *http.Request) (team.StaffRole, error) {
	role := team.StaffRole(r.PostFormValue("role"))
	if role == "" {
		return team.StaffAgent, nil
	}
	if !role.Valid() {
		return "", badRequest("Choose a role: owner, manager or agent.")
	}
	return role, nil
}

// addStaff creates another staff user with a password the owner passes on.
func (s *Server) addStaff(w http.ResponseWriter, r *http.Request) {
	role, err := formRole(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	u, err := createUser(r.Context(), s.db, r.FormValue("username"), r.FormValue("password"), role)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "staff user added", "new_user", u.Username, "role", string(role), "user", sessionFrom(r.Context()).Username)
	redirect(w, r, "/admin/staff", "Added "+u.Username+" as "+string(role)+".")
}

// inviteStaff makes a one-time link for a new staff member: the page shows
// it once; the database keeps only its hash.
func (s *Server) inviteStaff(w http.ResponseWriter, r *http.Request) {
	role, err := formRole(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	me, now, tok := sessionFrom(r.Context()).UserID, s.cfg.Now(), randomToken()
	inv := &team.StaffInvite{TokenHash: hashToken(tok), Role: role, CreatedBy: &me, CreatedAt: now, ExpiresAt: now.Add(inviteTTL)}
	if err := team.CreateStaffInvite(r.Context(), s.db, inv); err != nil {
		s.renderError(w, r, fmt.Errorf("admin: invite: %w", err))
		return
	}
	s.renderStaff(w, r, http.StatusOK, staffPage{NewLink: s.publicBase(r) + "/admin/invite/" + tok, NewRole: role, Expires: inv.ExpiresAt})
}

func (s *Server) revokeInvite(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err := team.RevokeStaffInvite(r.Context(), s.db, id, s.cfg.Now()); err != nil {
		s.renderError(w, r, err)
		return
	}
	redirect(w, r, "/admin/staff", "The invitation was revoked; its link no longer works.")
}

// otherUser loads the user a staff action names; yourself and the
// ADMIN_PASSWORD user (whose account the environment owns) are refused,
// so the panel always keeps an owner who can sign in.
func (s *Server) otherUser(w http.ResponseWriter, r *http.Request, verb string) *team.StaffUser {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	u, err := team.GetStaffUser(r.Context(), s.db, id)
	if errors.Is(err, catalog.ErrNotFound) {
		s.renderError(w, r, notFound("User"))
		return nil
	}
	if err != nil {
		s.renderError(w, r, err)
		return nil
	}
	if u.ID == sessionFrom(r.Context()).UserID || u.Username == AdminUser {
		s.renderError(w, r, badRequest("You cannot %s yourself or the admin user.", verb))
		return nil
	}
	return u
}

func (s *Server) setStaffRole(w http.ResponseWriter, r *http.Request) {
	role := team.StaffRole(r.PostFormValue("role"))
	if !role.Valid() {
		s.renderError(w, r, badRequest("Choose a role: owner, manager or agent."))
		return
	}
	u := s.otherUser(w, r, "change the role of")
	if u == nil {
		return
	}
	if err := team.SetStaffRole(r.Context(), s.db, u.ID, role, s.cfg.Now()); err != nil {
		s.renderError(w, r, err)
		return
	}
	redirect(w, r, "/admin/staff", u.Username+" is now "+string(role)+".")
}

func (s *Server) disableStaff(w http.ResponseWriter, r *http.Request) { s.setDisabled(w, r, true) }
func (s *Server) enableStaff(w http.ResponseWriter, r *http.Request)  { s.setDisabled(w, r, false) }

// setDisabled disables a user (signing them out everywhere) or enables
// them again.
func (s *Server) setDisabled(w http.ResponseWriter, r *http.Request, disabled bool) {
	u := s.otherUser(w, r, "disable or enable")
	if u == nil {
		return
	}
	if err := team.SetStaffDisabled(r.Context(), s.db, u.ID, disabled, s.cfg.Now()); err != nil {
		s.renderError(w, r, err)
		return
	}
	msg := u.Username + " is enabled again."
	if disabled {
		msg = u.Username + " is disabled and signed out everywhere."
	}
	redirect(w, r, "/admin/staff", msg)
}

// deleteStaff removes a staff user and their sessions (not yourself, and
// not admin, whose password comes from ADMIN_PASSWORD).
func (s *Server) deleteStaff(w http.ResponseWriter, r *http.Request) {
	u := s.otherUser(w, r, "remove")
	if u == nil {
		return
	}
	if err := team.DeleteStaffUser(r.Context(), s.db, u.ID); err != nil {
		s.renderError(w, r, fmt.Errorf("admin: delete user: %w", err))
		return
	}
	redirect(w, r, "/admin/staff", "Removed "+u.Username+".")
}
