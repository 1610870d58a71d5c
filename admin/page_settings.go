package admin

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"shopbot/catalog"
)

// settingsPage is /admin/settings.
type settingsPage struct {
	Form  settingsForm
	Error string
	// Channels is the Channels section (settings_channels.go).
	Channels []ChannelStatus
	// Widget is the web chat's embed snippet (settings_widget.go).
	Widget widgetEmbed
	// Feeds are the product feeds' addresses (settings_feeds.go).
	Feeds productFeeds
	// Agents are the doors for AI agents (settings_agents.go).
	Agents agentDoors
}

type settingsForm struct {
	ShopName, Currency, PromptExtra, Model, MaxRounds, RateLimit, RateWindow string
	// Version is the settings' version when the form was opened (hidden):
	// a save over a newer one is refused (settings.go).
	Version string
	// Changes and Unsaved: after a refused stale save, what changed since
	// the form was opened and the edits that were not saved.
	Changes, Unsaved []string
}

func formOfSettings(st catalog.Settings) settingsForm {
	return settingsForm{
		ShopName: st.ShopName, Currency: st.Currency, PromptExtra: st.PromptExtra, Model: st.Model,
		MaxRounds: strconv.Itoa(st.MaxRounds), RateLimit: strconv.Itoa(st.RateLimit), RateWindow: st.RateWindow.String(),
		Version: strconv.FormatInt(st.Version, 10),
	}
}

func (s *Server) settingsPage(w http.ResponseWriter, r *http.Request) {
	st, err := s.settings.Get(r.Context())
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.renderSettings(w, r, http.StatusOK, settingsPage{Form: formOfSettings(st)})
}

func (s *Server) renderSettings(w http.ResponseWriter, r *http.Request, code int, p settingsPage) {
	p.Channels = s.channels()
	p.Widget = s.widgetEmbed(r)
	p.Feeds = s.productFeeds(r)
	p.Agents = s.agentDoors(r)
	s.render(w, r, code, "settings", "Settings", "settings", p)
}

// saveSettings stores the settings; the engine reads them within a
// second, no restart needed.
func (s *Server) saveSettings(w http.ResponseWriter, r *http.Request) {
	f := settingsForm{
		ShopName: r.FormValue("shop_name"), Currency: r.FormValue("currency"), PromptExtra: r.FormValue("prompt_extra"),
		Model: r.FormValue("model"), MaxRounds: r.FormValue("max_rounds"), RateLimit: r.FormValue("rate_limit"),
		RateWindow: r.FormValue("rate_window"), Version: r.FormValue("version"),
	}
	st, err := parseSettings(f)
	if err == nil {
		err = validateSettings(&st)
	}
	if err == nil {
		err = s.settings.Save(r.Context(), st, s.cfg.Now())
	}
	if errors.Is(err, catalog.ErrConflict) {
		s.settingsChanged(w, r, f)
		return
	}
	if err != nil {
		if _, ok := err.(*userError); !ok {
			s.renderError(w, r, err)
			return
		}
		s.renderSettings(w, r, http.StatusBadRequest, settingsPage{Form: f, Error: err.Error()})
		return
	}
	s.log.InfoContext(r.Context(), "settings saved", "user", sessionFrom(r.Context()).Username)
	redirect(w, r, "/admin/settings", "Settings saved. They apply to the next messages, no restart needed.")
}

func parseSettings(f settingsForm) (catalog.Settings, error) {
	st := catalog.Settings{ShopName: f.ShopName, Currency: strings.TrimSpace(f.Currency), PromptExtra: strings.TrimSpace(f.PromptExtra), Model: f.Model}
	var err error
	if st.MaxRounds, err = strconv.Atoi(strings.TrimSpace(f.MaxRounds)); err != nil {
		return st, badRequest("Model calls per turn must be a whole number.")
	}
	if st.RateLimit, err = strconv.Atoi(strings.TrimSpace(f.RateLimit)); err != nil {
		return st, badRequest("The rate limit must be a whole number.")
	}
	if st.RateWindow, err = time.ParseDuration(strings.TrimSpace(f.RateWindow)); err != nil {
		return st, badRequest("The rate window must be a duration such as 60s or 5m.")
	}
	if _, err := catalog.NormalizeCurrency(st.Currency); err != nil {
		return st, badRequest("%q is not an ISO 4217 currency code.", st.Currency)
	}
	if st.Version, err = strconv.ParseInt(f.Version, 10, 64); err != nil || st.Version < 0 {
		return st, badRequest("This form does not say when it was opened, so it could overwrite newer settings: nothing was saved. Open the settings again.")
	}
	return st, nil
}
