package engine

import "strings"

// The engine's own words to shoppers (the planner has its templates in
// planner_text.go). One entry per language; English is the fallback.
type messageKey int

const (
	msgSorry messageKey = iota
	msgRateLimited
	msgRoundsExhausted
	msgEmptyAnswer
	msgFactsNote
	msgAdded
	msgCartUpdated
)

var engineMessages = map[string]map[messageKey]string{
	"en": {
		msgSorry:           "Sorry, something went wrong on our side. Please try again in a moment.",
		msgRateLimited:     "You're sending messages faster than I can shop 🙂 Please wait a minute and try again.",
		msgRoundsExhausted: "I couldn't finish that request. Could you rephrase it or ask for one thing at a time?",
		msgEmptyAnswer:     "Here is what I found.",
		msgFactsNote:       "Current figures from the catalog:",
		msgAdded:           "Added to the cart.",
		msgCartUpdated:     "Cart updated.",
	},
	"ru": {
		msgSorry:           "Извините, у нас что-то пошло не так. Попробуйте ещё раз чуть позже.",
		msgRateLimited:     "Слишком много сообщений подряд 🙂 Подождите минуту и попробуйте снова.",
		msgRoundsExhausted: "Не получилось выполнить запрос. Переформулируйте его или спросите что-то одно.",
		msgEmptyAnswer:     "Вот что я нашёл.",
		msgFactsNote:       "Актуальные данные из каталога:",
		msgAdded:           "Добавлено в корзину.",
		msgCartUpdated:     "Корзина обновлена.",
	},
}

// engineMessage returns a message in the locale's language.
func engineMessage(locale string, key messageKey) string {
	lang := "en"
	if strings.HasPrefix(strings.ToLower(locale), "ru") {
		lang = "ru"
	}
	return engineMessages[lang][key]
}
