package admin

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"shopbot/catalog"
)

// The feeds page (/admin/import/feeds) lists the scheduled product feeds
// with how their last run went and when the next one is, and adds, edits,
// runs now or removes one. The runs themselves are the feed scheduler's
// (catalog/importer), started by `shopbot serve` on every replica; this
// page only reads and writes the import_feeds table.

// feedsPage is the page's data.
type feedsPage struct {
	Feeds []feedRow
	Form  feedForm
	Error string // why the posted feed was not added
}

// feedForm is the add form as posted (or its defaults).
type feedForm struct {
	URL        string
	EveryHours string
	Enabled    bool
}

// feedRow is one feed as the table shows it.
type feedRow struct {
	catalog.Feed
	Status  string // a few words
	Problem bool   // the last run failed
	LastRun time.Time
	NextRun time.Time
}

func (s *Server) feedsList(w http.ResponseWriter, r *http.Request) {
	s.renderFeeds(w, r, http.StatusOK, feedForm{EveryHours: strconv.Itoa(catalog.DefaultFeedEveryHours), Enabled: true}, "")
}

func (s *Server) renderFeeds(w http.ResponseWriter, r *http.Request, code int, form feedForm, formErr string) {
	feeds, err := catalog.ListFeeds(r.Context(), s.db)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	v := feedsPage{Form: form, Error: formErr}
	for _, f := range feeds {
		v.Feeds = append(v.Feeds, feedRowOf(f))
	}
	s.render(w, r, code, "feeds", "Product feeds", "products", v)
}

func feedRowOf(f catalog.Feed) feedRow {
	row := feedRow{Feed: f, LastRun: f.LastRunAt.Time, NextRun: f.NextRunAt}
	switch f.LastStatus {
	case "":
		row.Status = "not run yet"
	case catalog.FeedImported:
		row.Status = "imported"
		if f.LastArchived > 0 {
			row.Status += ", " + strconv.Itoa(f.LastArchived) + " archived"
		}
	case catalog.FeedNotChanged:
		row.Status = "not changed"
	case catalog.FeedFailed:
		row.Status, row.Problem = "failed", true
	}
	if !f.Enabled {
		row.NextRun = time.Time{}
	}
	return row
}

// createFeed adds a feed, due at once; a bad URL or period shows the
// form again with the reason and stores nothing.
func (s *Server) createFeed(w http.ResponseWriter, r *http.Request) {
	form := feedForm{URL: strings.TrimSpace(r.FormValue("url")), EveryHours: strings.TrimSpace(r.FormValue("every_hours")),
		Enabled: r.FormValue("enabled") == "1"}
	every, err := strconv.Atoi(form.EveryHours)
	if err != nil || every < 1 {
		s.renderFeeds(w, r, http.StatusBadRequest, form, "Fetch every: a whole number of hours, 1 to 168.")
		return
	}
	f, err := catalog.CreateFeed(r.Context(), s.db, catalog.FeedInput{URL: form.URL, EveryHours: every, Enabled: form.Enabled}, s.cfg.Now())
	if err != nil {
		if !isFormError(err) {
			s.renderError(w, r, err)
			return
		}
		s.renderFeeds(w, r, http.StatusBadRequest, form, feedFormError(err))
		return
	}
	s.log.InfoContext(r.Context(), "admin: feed added", "feed", f.ID, "user", sessionFrom(r.Context()).Username)
	redirect(w, r, "/admin/import/feeds", "Feed added; it is fetched within a minute.")
}

// saveFeed changes a feed's period and whether it runs.
func (s *Server) saveFeed(w http.ResponseWriter, r *http.Request) {
	id, ok := s.feedID(w, r)
	if !ok {
		return
	}
	every, err := strconv.Atoi(strings.TrimSpace(r.FormValue("every_hours")))
	if err != nil || every < 1 {
		s.renderError(w, r, badRequest("Fetch every: a whole number of hours, 1 to 168."))
		return
	}
	if err := catalog.UpdateFeed(r.Context(), s.db, id, every, r.FormValue("enabled") == "1", s.cfg.Now()); err != nil {
		if isFormError(err) {
			err = badRequest("%s", feedFormError(err))
		}
		s.renderError(w, r, err)
		return
	}
	redirect(w, r, "/admin/import/feeds", "Feed saved.")
}

// runFeedNow makes a feed due now: a replica's scheduler fetches it
// within a minute.
func (s *Server) runFeedNow(w http.ResponseWriter, r *http.Request) {
	id, ok := s.feedID(w, r)
	if !ok {
		return
	}
	if err := catalog.RunFeedNow(r.Context(), s.db, id, s.cfg.Now()); err != nil {
		s.renderError(w, r, err)
		return
	}
	redirect(w, r, "/admin/import/feeds", "The feed is fetched within a minute.")
}

// deleteFeed removes a feed; its import jobs stay listed.
func (s *Server) deleteFeed(w http.ResponseWriter, r *http.Request) {
	id, ok := s.feedID(w, r)
	if !ok {
		return
	}
	if err := catalog.DeleteFeed(r.Context(), s.db, id); err != nil {
		s.renderError(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "admin: feed removed", "feed", id, "user", sessionFrom(r.Context()).Username)
	redirect(w, r, "/admin/import/feeds", "Feed removed.")
}

func (s *Server) feedID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		s.renderError(w, r, notFound("Feed"))
		return 0, false
	}
	return id, true
}

// isFormError reports an error the form shows: bad input or a URL already
// listed.
func isFormError(err error) bool {
	return errors.Is(err, catalog.ErrInvalid) || errors.Is(err, catalog.ErrConflict)
}

// feedFormError is the sentence of a form error, without the wrapping.
func feedFormError(err error) string {
	msg := err.Error()
	for _, sentinel := range []error{catalog.ErrInvalid, catalog.ErrConflict} {
		if _, rest, ok := strings.Cut(msg, sentinel.Error()+": "); ok {
			return strings.ToUpper(rest[:1]) + rest[1:] + "."
		}
	}
	return msg
}
