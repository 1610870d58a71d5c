package planner

import (
	"fmt"

	"shopbot/engine/locale"
)

// The offline planner's words live in the text catalogue (engine/locale,
// keys planner.*), one file per language. Every figure in a reply (titles,
// prices, counts, order numbers) comes from the data the template is
// given, which comes from tool results; the templates add only connecting
// words. Labels of quick replies are there too (planner.btn.*).

// replyKey names one template.
type replyKey string

const (
	rHelp           replyKey = "help"
	rOwnData        replyKey = "own_data"
	rGreeting       replyKey = "greeting"
	rThanks         replyKey = "thanks"
	rShopData       replyKey = "shop_data"
	rFound          replyKey = "found"
	rNothing        replyKey = "nothing"
	rSoldOut        replyKey = "sold_out"
	rAboutIt        replyKey = "about_it"
	rAdded          replyKey = "added"
	rUpdated        replyKey = "updated"
	rRemoved        replyKey = "removed"
	rCart           replyKey = "cart"
	rCartEmpty      replyKey = "cart_empty"
	rCleared        replyKey = "cleared"
	rNotInCart      replyKey = "not_in_cart"
	rNoShown        replyKey = "no_shown"
	rOutOfRange     replyKey = "out_of_range"
	rWhich          replyKey = "which"
	rNeedTwo        replyKey = "need_two"
	rDetails        replyKey = "details"
	rSimilar        replyKey = "similar"
	rCompare        replyKey = "compare"
	rAvailability   replyKey = "availability"
	rReviews        replyKey = "reviews"
	rCategories     replyKey = "categories"
	rPopular        replyKey = "popular"
	rNoOrders       replyKey = "no_orders"
	rNoSuchOrder    replyKey = "no_such_order"
	rAsk            replyKey = "ask"
	rInvalidField   replyKey = "invalid_field"
	rSummary        replyKey = "summary"
	rPlaced         replyKey = "placed"
	rCancelled      replyKey = "cancelled"
	rNothingToStop  replyKey = "nothing_to_cancel"
	rEmptyCheckout  replyKey = "empty_checkout"
	rHuman          replyKey = "human"
	rToolError      replyKey = "tool_error"
	rCantDo         replyKey = "cant_do"
	rTooMany        replyKey = "too_many"
	rList           replyKey = "list"
	rStats          replyKey = "stats"
	rCheckoutStatus replyKey = "checkout_status"
	rMore           replyKey = "more"
	rNoMore         replyKey = "no_more"
	rNoListing      replyKey = "no_listing"
	rListEnd        replyKey = "list_end"
	rStaleList      replyKey = "stale_list"
	rPersonal       replyKey = "personal"
	rNoMatch        replyKey = "no_match"
	rPick           replyKey = "pick"       // variants.go
	rOptionOut      replyKey = "option_out" // variants.go
)

// renderReply fills the reply template of key (planner.KEY of the text
// catalogue, engine/locale) in lang.
func renderReply(lang string, key replyKey, data any) (string, error) {
	out, err := locale.Text(lang, "planner."+string(key), data)
	if err != nil {
		return "", fmt.Errorf("engine: planner reply: %w", err)
	}
	return out, nil
}

// replyLabel is a button label or other plain word of the catalogue.
func replyLabel(lang string, key replyKey) string {
	return locale.Word(lang, "planner."+string(key))
}
