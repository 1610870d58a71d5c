package admin

import (
	"net/http"
	"strconv"
	"strings"

	"shopbot/catalog"
)

// The search synonyms page (/admin/settings/synonyms) lists the shop's own
// groups of interchangeable search words ("couch, sofa", a brand's nickname)
// and adds or removes one. Both search backends expand queries with them as
// with the built-in retail lexicon; every replica's index picks a change up
// on its next poll (catalog.SynonymsVersion).

// synonymsPage is the page's data.
type synonymsPage struct {
	Groups []catalog.SynonymGroup
	Terms  string // the add form as posted
	Error  string // why it was not added
	Max    int
}

func (s *Server) synonymsList(w http.ResponseWriter, r *http.Request) {
	s.renderSynonyms(w, r, http.StatusOK, "", "")
}

func (s *Server) renderSynonyms(w http.ResponseWriter, r *http.Request, code int, terms, formErr string) {
	gs, err := catalog.ListSynonymGroups(r.Context(), s.db)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.render(w, r, code, "synonyms", "Search synonyms", "settings",
		synonymsPage{Groups: gs, Terms: terms, Error: formErr, Max: catalog.MaxSynonymTerms})
}

// synonymsPost adds the posted group (terms) or, with delete set to a
// group's id, removes that group. Bad input shows the form again with the
// reason and stores nothing.
func (s *Server) synonymsPost(w http.ResponseWriter, r *http.Request) {
	if del := r.FormValue("delete"); del != "" {
		id, err := strconv.ParseInt(del, 10, 64)
		if err == nil {
			err = catalog.DeleteSynonymGroup(r.Context(), s.db, id)
		}
		if err != nil {
			s.renderError(w, r, notFound("Synonym group"))
			return
		}
		s.log.InfoContext(r.Context(), "admin: synonym group removed", "group", id, "user", sessionFrom(r.Context()).Username)
		redirect(w, r, "/admin/settings/synonyms", "Synonym group removed; searches drop it within a few seconds.")
		return
	}
	terms := strings.TrimSpace(r.FormValue("terms"))
	g, err := catalog.AddSynonymGroup(r.Context(), s.db, terms)
	if err != nil {
		if !isFormError(err) {
			s.renderError(w, r, err)
			return
		}
		s.renderSynonyms(w, r, http.StatusBadRequest, terms, feedFormError(err))
		return
	}
	s.log.InfoContext(r.Context(), "admin: synonym group added", "group", g.ID, "user", sessionFrom(r.Context()).Username)
	redirect(w, r, "/admin/settings/synonyms", "Synonym group added; searches use it within a few seconds.")
}
