package admin

import (
	"net/http"

	"shopbot/catalog"
)

// pagesPage is /admin/pages: the shop's pages, which the bot answers
// policy questions from (search_shop_info).
type pagesPage struct {
	Pages []catalog.Page
}

func (s *Server) pagesList(w http.ResponseWriter, r *http.Request) {
	ps, err := catalog.ListPages(r.Context(), s.db)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "pages", "Pages", "pages", pagesPage{Pages: ps})
}

// deletePage removes a page and its passages; the search indexes drop
// them through the catalog's change feed.
func (s *Server) deletePage(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	if err := catalog.DeletePage(r.Context(), s.db, slug); err != nil {
		s.renderError(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "admin: page deleted", "slug", slug, "user", sessionFrom(r.Context()).Username)
	redirect(w, r, "/admin/pages", "Page "+slug+" deleted.")
}
