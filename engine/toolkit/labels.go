package toolkit

import (
	"shopbot/engine/locale"
	"shopbot/engine/session"
)

// LabelKey names a button label the tools put on their buttons, in the
// text catalogue (engine/locale, keys button.*).
type LabelKey string

// The button labels.
const (
	BtnConfirm      LabelKey = "button.confirm"
	BtnEditCart     LabelKey = "button.edit_cart"
	BtnAdd          LabelKey = "button.add"
	BtnAddToCart    LabelKey = "button.add_to_cart"
	BtnMoreLikeThis LabelKey = "button.more_like_this"
	BtnCheckout     LabelKey = "button.checkout"
	BtnViewCart     LabelKey = "button.view_cart"
	BtnNotifyMe     LabelKey = "button.notify_me"
)

// Label is a button label in the session's language; English is the
// fallback.
func Label(s *session.Session, key LabelKey) string {
	return locale.Word(s.Lang(), string(key))
}
