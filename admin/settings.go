package admin

import (
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
