package admin

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/panel"
)

// The search insights page (/admin/search-insights) lists, over a chosen
// period (7, 30 or 90 days), the most searched queries, the queries that
// found nothing and those after which nothing was added to a cart, each
// with one click to pin a product for the query (both search backends list
// it first: catalog/search.Pinned) or, for the owner, to start a synonym
// group with it. Queries holding contact details never appear
// (panel.SearchCounts leaves them out).

// insightPeriods are the periods the page offers, in days.
var insightPeriods = []int{7, 30, 90}

// insightRows bounds each list.
const insightRows = 20

// insightList is one of the page's three lists.
type insightList struct {
	ID, Title string
	Rows      []panel.QueryCount
}

// searchInsightsPage is the page's data.
type searchInsightsPage struct {
	Days    int
	Periods []int
	Lists   []insightList
	Pins    []catalog.SearchPin
	Error   string
}

func (s *Server) searchInsights(w http.ResponseWriter, r *http.Request) {
	s.renderSearchInsights(w, r, http.StatusOK, "")
}

func (s *Server) renderSearchInsights(w http.ResponseWriter, r *http.Request, code int, formErr string) {
	days := 30
	if d, err := strconv.Atoi(r.FormValue("days")); err == nil {
		for _, p := range insightPeriods {
			if d == p {
				days = d
			}
		}
	}
	rep, err := panel.SearchInsights(r.Context(), s.db, time.Now().UTC().AddDate(0, 0, -days), insightRows)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	pins, err := catalog.ListSearchPins(r.Context(), s.db)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.render(w, r, code, "search_insights", "Search insights", "dashboard",
		searchInsightsPage{Days: days, Periods: insightPeriods, Pins: pins, Error: formErr, Lists: []insightList{
			{ID: "top-queries", Title: "Top queries", Rows: rep.Top},
			{ID: "no-result-queries", Title: "Queries that found nothing", Rows: rep.NoResults},
			{ID: "no-add-queries", Title: "Queries with nothing added to a cart after", Rows: rep.NoAddAfter},
		}})
}

// searchPinPost pins the product with the posted sku for the posted query
// or, with delete set to a pin's id, removes that pin. Bad input shows the
// page again with the reason and stores nothing.
func (s *Server) searchPinPost(w http.ResponseWriter, r *http.Request) {
	user := sessionFrom(r.Context()).Username
	if del := r.FormValue("delete"); del != "" {
		id, err := strconv.ParseInt(del, 10, 64)
		if err == nil {
			err = catalog.DeleteSearchPin(r.Context(), s.db, id)
		}
		if err != nil {
			s.renderError(w, r, notFound("Search pin"))
			return
		}
		s.log.InfoContext(r.Context(), "admin: search pin removed", "pin", id, "user", user)
		redirect(w, r, "/admin/search-insights", "Pin removed.")
		return
	}
	pin, err := catalog.AddSearchPin(r.Context(), s.db, r.FormValue("query"), r.FormValue("sku"))
	if err != nil {
		if errors.Is(err, catalog.ErrNotFound) {
			s.renderSearchInsights(w, r, http.StatusBadRequest, "No product has the SKU "+strconv.Quote(r.FormValue("sku"))+".")
			return
		}
		if !isFormError(err) {
			s.renderError(w, r, err)
			return
		}
		s.renderSearchInsights(w, r, http.StatusBadRequest, feedFormError(err))
		return
	}
	s.log.InfoContext(r.Context(), "admin: search pin added", "pin", pin.ID, "user", user)
	redirect(w, r, "/admin/search-insights", "Pinned: searches for “"+pin.Query+"” list "+pin.Product.SKU+" first.")
}
