package engine

import "shopbot/engine/locale"

// messageKey names one of the engine's own sentences to shoppers in the
// text catalogue (engine/locale, keys engine.*); the planner's are
// planner.*, the tools' button labels button.*.
type messageKey string

// The engine's sentences.
const (
	msgSorry           messageKey = "engine.sorry"
	msgRateLimited     messageKey = "engine.rate_limited"
	msgRoundsExhausted messageKey = "engine.rounds_exhausted"
	msgEmptyAnswer     messageKey = "engine.empty_answer"
	msgFactsNote       messageKey = "engine.facts_note"
	msgPriceUnverified messageKey = "engine.price_unverified"
	msgAdded           messageKey = "engine.added"
	msgAlertSet        messageKey = "engine.alert_set"
	msgCartUpdated     messageKey = "engine.cart_updated"
	msgCartEmpty       messageKey = "engine.cart_empty"
	msgYourCart        messageKey = "engine.your_cart"
	msgNoOrders        messageKey = "engine.no_orders"
	msgLatestOrder     messageKey = "engine.latest_order"
	msgPickCategory    messageKey = "engine.pick_category"
	msgNoSubcategories messageKey = "engine.no_subcategories"
	msgNoSuchCategory  messageKey = "engine.no_such_category"
	msgCategoryEmpty   messageKey = "engine.category_empty"
	msgNoSimilar       messageKey = "engine.no_similar"
	msgNoSuchProduct   messageKey = "engine.no_such_product"
	msgNoOptions       messageKey = "engine.no_options"
	msgStaleChoice     messageKey = "engine.stale_choice"
	msgOptionOut       messageKey = "engine.option_out"
)

// engineMessage is key's sentence in the language of the shopper's locale
// (English when the catalogue lacks it).
func engineMessage(loc string, key messageKey) string {
	return locale.Word(loc, string(key))
}
