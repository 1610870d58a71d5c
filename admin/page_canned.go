package admin

import (
	"errors"
	"net/http"
	"strconv"

	"shopbot/catalog"
	"shopbot/catalog/team"
)

// cannedPage is /admin/canned: the team's canned replies.
type cannedPage struct {
	Replies []team.CannedReply
}

func (s *Server) cannedPage(w http.ResponseWriter, r *http.Request) {
	rs, err := team.ListCannedReplies(r.Context(), s.db)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "canned", "Canned replies", "conversations", cannedPage{Replies: rs})
}

func (s *Server) saveCanned(w http.ResponseWriter, r *http.Request) {
	c, err := team.SaveCannedReply(r.Context(), s.db, r.PostFormValue("shortcut"), r.PostFormValue("body"), s.cfg.Now())
	if errors.Is(err, catalog.ErrInvalid) {
		err = badRequest("A shortcut is 1–32 letters, digits, - or _, and the text 1–2,000 characters.")
	}
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	redirect(w, r, "/admin/canned", "Saved /"+c.Shortcut+".")
}

func (s *Server) deleteCanned(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err := team.DeleteCannedReply(r.Context(), s.db, id); err != nil {
		s.renderError(w, r, err)
		return
	}
	redirect(w, r, "/admin/canned", "Canned reply removed.")
}
