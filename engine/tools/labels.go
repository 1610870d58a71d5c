package tools

import (
	"shopbot/engine/session"
	"strings"
)

// LabelKey names a button label the tools put on their buttons.
type LabelKey int

// The button labels.
const (
	BtnConfirm LabelKey = iota
	BtnEditCart
	BtnAdd
	BtnAddToCart
	BtnMoreLikeThis
	BtnCheckout
	BtnViewCart
	BtnNotifyMe
)

var labels = map[string]map[LabelKey]string{
	"en": {
		BtnConfirm:      "Confirm order",
		BtnEditCart:     "Edit cart",
		BtnAdd:          "Add",
		BtnAddToCart:    "Add to cart",
		BtnMoreLikeThis: "More like this",
		BtnCheckout:     "Checkout",
		BtnViewCart:     "View cart",
		BtnNotifyMe:     "Notify me when back",
	},
	"ru": {
		BtnConfirm:      "Подтвердить заказ",
		BtnEditCart:     "Изменить корзину",
		BtnAdd:          "Добавить",
		BtnAddToCart:    "В корзину",
		BtnMoreLikeThis: "Похожие",
		BtnCheckout:     "Оформить заказ",
		BtnViewCart:     "Корзина",
		BtnNotifyMe:     "Сообщить о поступлении",
	},
}

// Label is a button label in the session's language; English is the
// fallback.
func Label(s *session.Session, key LabelKey) string {
	lang := "en"
	if strings.HasPrefix(strings.ToLower(s.Lang()), "ru") {
		lang = "ru"
	}
	return labels[lang][key]
}
