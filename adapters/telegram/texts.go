package telegram

import "shopbot/engine/locale"

// textKey names one of the adapter's own words (everything else comes
// from the engine) in the text catalogue (engine/locale, keys
// telegram.*); some carry fmt verbs, filled by the caller.
type textKey string

// The adapter's words.
const (
	txtWelcome          textKey = "telegram.welcome"
	txtHelp             textKey = "telegram.help"
	txtOwnContact       textKey = "telegram.own_contact"
	txtStaleButton      textKey = "telegram.stale_button"
	txtTooLong          textKey = "telegram.too_long"
	txtSharePhone       textKey = "telegram.share_phone"
	txtSharePhoneButton textKey = "telegram.share_phone_button"
	txtAdded            textKey = "telegram.added"
	txtUpdated          textKey = "telegram.updated"
	txtRemoved          textKey = "telegram.removed"
	txtCart             textKey = "telegram.cart"
	txtGroupCart        textKey = "telegram.group_cart"
	txtCartEmpty        textKey = "telegram.cart_empty"
	txtTotal            textKey = "telegram.total"
	txtAddedBy          textKey = "telegram.added_by"
	txtCheckout         textKey = "telegram.checkout"
	txtAddToCart        textKey = "telegram.add_to_cart"
	txtDetails          textKey = "telegram.details"
	txtSimilar          textKey = "telegram.similar"
	txtInStock          textKey = "telegram.in_stock"
	txtOutOfStock       textKey = "telegram.out_of_stock"
	txtOrder            textKey = "telegram.order"
	txtPaid             textKey = "telegram.paid"
	txtPayTitle         textKey = "telegram.pay_title"
	txtRefuseNotPayable textKey = "telegram.refuse_not_payable"
	txtRefuseTotal      textKey = "telegram.refuse_total"
	txtRefusePrice      textKey = "telegram.refuse_price"
	txtRefuseGone       textKey = "telegram.refuse_gone"
	txtRefuseTryAgain   textKey = "telegram.refuse_try_again"
	txtStatus           textKey = "telegram.status"
	txtTracking         textKey = "telegram.tracking"
	txtBackInStock      textKey = "telegram.back_in_stock"
	txtNotifyMe         textKey = "telegram.notify_me"
	txtChoose           textKey = "telegram.choose"
	txtSoldOut          textKey = "telegram.sold_out"
)

// text returns a word in the locale's language (English by default).
func text(loc string, k textKey) string {
	return locale.Word(loc, string(k))
}
