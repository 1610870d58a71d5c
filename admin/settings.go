package admin

import (
	"net/http"
	"strings"
	"time"

	"shopbot/catalog"
)

// validateSettings checks and normalizes what the settings form sent; a
// mistake is a userError the form shows.
func validateSettings(st *catalog.Settings) error {
	st.ShopName = strings.TrimSpace(st.ShopName)
	st.Model = strings.TrimSpace(st.Model)
	switch {
	case st.ShopName == "" || len([]rune(st.ShopName)) > 80:
		return badRequest("The shop name must be 1–80 characters.")
	case len(st.PromptExtra) > 4000:
		return badRequest("The prompt additions must be at most 4,000 characters.")
	case len(st.Model) > 100 || strings.ContainsAny(st.Model, " \t\r\n"):
		return badRequest("The model must be a model name without spaces, such as gpt-4o-mini.")
	case st.MaxRounds < 1 || st.MaxRounds > 20:
		return badRequest("Model calls per turn must be from 1 to 20.")
	case st.RateLimit < 1 || st.RateLimit > 10000:
		return badRequest("The rate limit must be from 1 to 10,000 turns.")
	case st.RateWindow < time.Second || st.RateWindow > 24*time.Hour:
		return badRequest("The rate window must be from 1s to 24h.")
	}
	cur, err := catalog.NormalizeCurrency(st.Currency)
	if err != nil {
		return badRequest("%q is not an ISO 4217 currency code.", st.Currency)
	}
	st.Currency = cur
	return nil
}

// settingsChanged shows the settings form again after a stale save was
// refused: the current values, and where the posted form differed from
// them (current → posted), so the merchant can redo their edits.
func (s *Server) settingsChanged(w http.ResponseWriter, r *http.Request, posted settingsForm) {
	st, err := s.settings.Get(r.Context())
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	cur := formOfSettings(st)
	cur.Unsaved = settingsDifferences(cur, posted)
	if len(cur.Unsaved) == 0 {
		cur.Unsaved = []string{"(none: your page had the current values)"}
	}
	s.renderSettings(w, r, http.StatusConflict, settingsPage{Form: cur,
		Error: "The settings were changed since you opened them, so nothing was saved: saving your page would have written old values back. The form now shows the current values; redo your edits below."})
}

// settingsDifferences lists the fields of b that differ from a, as
// "label 'a' → 'b'".
func settingsDifferences(a, b settingsForm) []string {
	fields := func(f settingsForm) []shownValue {
		return []shownValue{{"shop name", f.ShopName}, {"currency", f.Currency}, {"model", f.Model},
			{"model calls per turn", f.MaxRounds}, {"turns per customer", f.RateLimit},
			{"per window", f.RateWindow}, {"system prompt additions", f.PromptExtra}}
	}
	return differences(fields(a), fields(b))
}
