package engine

import "strings"

// The engine's own words to shoppers (the planner has its templates in
// engine/planner, text.go). One entry per language; English is the fallback.
type messageKey int

const (
	msgSorry messageKey = iota
	msgRateLimited
	msgRoundsExhausted
	msgEmptyAnswer
	msgFactsNote
	msgPriceUnverified
	msgAdded
	msgAlertSet
	msgCartUpdated
	msgCartEmpty
	msgYourCart
	msgNoOrders
	msgLatestOrder
	msgPickCategory
	msgNoSubcategories
	msgNoSuchCategory
	msgCategoryEmpty
	msgNoSimilar
	msgNoSuchProduct
	msgNoOptions
	msgStaleChoice
	msgOptionOut
)

var engineMessages = map[string]map[messageKey]string{
	"en": {
		msgSorry:           "Sorry, something went wrong on our side. Please try again in a moment.",
		msgRateLimited:     "You're sending messages faster than I can shop 🙂 Please wait a minute and try again.",
		msgRoundsExhausted: "I couldn't finish that request. Could you rephrase it or ask for one thing at a time?",
		msgEmptyAnswer:     "Here is what I found.",
		msgFactsNote:       "Current figures from the catalog:",
		msgPriceUnverified: "Please don't rely on %s: I couldn't check it against the catalog. Ask me about the product and I'll show its current price.",
		msgAdded:           "Added to the cart.",
		msgAlertSet:        "I will message you here when it is back in stock.",
		msgCartUpdated:     "Cart updated.",
		msgCartEmpty:       "Your cart is empty.",
		msgYourCart:        "Here is your cart.",
		msgNoOrders:        "You have no orders yet.",
		msgLatestOrder:     "Here is your latest order.",
		msgPickCategory:    "Choose a category:",
		msgNoSubcategories: "This category has no subcategories.",
		msgNoSuchCategory:  "That category doesn't exist. Here are our categories:",
		msgCategoryEmpty:   "Nothing in this category is in stock right now. Here are our categories:",
		msgNoSimilar:       "I found nothing similar to that product.",
		msgNoSuchProduct:   "I can't find that product. Try searching for it by name.",
		msgNoOptions:       "That product has no sizes or colours to choose from.",
		msgStaleChoice:     "That choice is no longer available. Please open the product again and choose.",
		msgOptionOut:       "Sorry, that isn't in stock right now.",
	},
	"ru": {
		msgSorry:           "Извините, у нас что-то пошло не так. Попробуйте ещё раз чуть позже.",
		msgRateLimited:     "Слишком много сообщений подряд 🙂 Подождите минуту и попробуйте снова.",
		msgRoundsExhausted: "Не получилось выполнить запрос. Переформулируйте его или спросите что-то одно.",
		msgEmptyAnswer:     "Вот что я нашёл.",
		msgFactsNote:       "Актуальные данные из каталога:",
		msgPriceUnverified: "Не ориентируйтесь на %s: эту цену не удалось сверить с каталогом. Спросите меня о товаре, и я покажу актуальную цену.",
		msgAdded:           "Добавлено в корзину.",
		msgAlertSet:        "Напишу сюда, когда товар снова появится.",
		msgCartUpdated:     "Корзина обновлена.",
		msgCartEmpty:       "Ваша корзина пуста.",
		msgYourCart:        "Вот ваша корзина.",
		msgNoOrders:        "У вас пока нет заказов.",
		msgLatestOrder:     "Вот ваш последний заказ.",
		msgPickCategory:    "Выберите категорию:",
		msgNoSubcategories: "В этой категории нет подкатегорий.",
		msgNoSuchCategory:  "Такой категории нет. Вот наши категории:",
		msgCategoryEmpty:   "В этой категории сейчас ничего нет в наличии. Вот наши категории:",
		msgNoSimilar:       "Похожих товаров не нашлось.",
		msgNoSuchProduct:   "Не могу найти этот товар. Попробуйте поискать его по названию.",
		msgNoOptions:       "У этого товара нет размеров или цветов на выбор.",
		msgStaleChoice:     "Этот вариант больше недоступен. Откройте товар снова и выберите.",
		msgOptionOut:       "К сожалению, этого сейчас нет в наличии.",
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
