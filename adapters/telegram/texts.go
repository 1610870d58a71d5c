package telegram

import "strings"

// The adapter's own words (everything else comes from the engine), in
// English and Russian.
type textKey int

const (
	txtWelcome textKey = iota
	txtHelp
	txtOwnContact
	txtStaleButton
	txtTooLong
	txtSharePhone
	txtSharePhoneButton
	txtAdded
	txtUpdated
	txtRemoved
	txtCart
	txtGroupCart
	txtCartEmpty
	txtTotal
	txtAddedBy
	txtCheckout
	txtAddToCart
	txtDetails
	txtSimilar
	txtInStock
	txtOutOfStock
	txtOrder
	txtPaid
	txtPayTitle
	txtRefuseNotPayable
	txtRefuseTotal
	txtRefusePrice
	txtRefuseGone
	txtRefuseTryAgain
	txtStatus
	txtTracking
	txtBackInStock
	txtNotifyMe
	txtChoose
	txtSoldOut
)

var texts = map[textKey][2]string{
	txtWelcome: {"👋 Welcome to <b>%s</b>! Tell me what you are looking for — “running shoes under $100”, “a gift for a coffee lover” — or browse the catalog below.",
		"👋 Добро пожаловать в <b>%s</b>! Напишите, что ищете, — «кроссовки до 100 $», «подарок кофеману» — или откройте каталог ниже."},
	txtHelp: {"<b>What I can do</b>\n• find products: just write what you need\n• /menu — browse categories\n• /cart — your cart\n• /orders — your orders\nIn groups, mention me or reply to my message; the group shares one cart.",
		"<b>Что я умею</b>\n• искать товары: просто напишите, что нужно\n• /menu — категории\n• /cart — корзина\n• /orders — заказы\nВ группах упомяните меня или ответьте на моё сообщение; у группы общая корзина."},
	txtOwnContact:       {"Please share your own phone number with the button below, or type it.", "Пожалуйста, поделитесь своим номером кнопкой ниже или напишите его."},
	txtStaleButton:      {"This button no longer works.", "Эта кнопка больше не работает."},
	txtTooLong:          {"That message is too long for me — please shorten it.", "Сообщение слишком длинное — сократите его, пожалуйста."},
	txtSharePhone:       {"Tap the button to share your phone number, or type it.", "Нажмите кнопку, чтобы отправить номер телефона, или напишите его."},
	txtSharePhoneButton: {"📱 Share my phone number", "📱 Отправить мой номер"},
	txtAdded:            {"Added ✓", "Добавлено ✓"},
	txtUpdated:          {"Cart updated ✓", "Корзина обновлена ✓"},
	txtRemoved:          {"Removed ✓", "Удалено ✓"},
	txtCart:             {"🛒 <b>Your cart</b>", "🛒 <b>Ваша корзина</b>"},
	txtGroupCart:        {"🛒 <b>Group cart</b>", "🛒 <b>Общая корзина</b>"},
	txtCartEmpty:        {"Your cart is empty.", "Корзина пуста."},
	txtTotal:            {"<b>Total: %s</b> (%d items)", "<b>Итого: %s</b> (%d шт.)"},
	txtAddedBy:          {"added by %s", "добавил(а) %s"},
	txtCheckout:         {"✅ Checkout", "✅ Оформить заказ"},
	txtAddToCart:        {"🛒 Add to cart", "🛒 В корзину"},
	txtDetails:          {"Details", "Подробнее"},
	txtSimilar:          {"More like this", "Похожие"},
	txtInStock:          {"in stock", "в наличии"},
	txtOutOfStock:       {"out of stock", "нет в наличии"},
	txtOrder:            {"📦 Order <b>%s</b> · %s", "📦 Заказ <b>%s</b> · %s"},
	txtPaid:             {"✅ Payment received — order <b>%s</b> is paid. Thank you!", "✅ Оплата получена — заказ <b>%s</b> оплачен. Спасибо!"},
	txtPayTitle:         {"Order %s", "Заказ %s"},
	txtRefuseNotPayable: {"This order is no longer awaiting payment.", "Этот заказ больше не ожидает оплаты."},
	txtRefuseTotal:      {"The order total has changed; please check out again.", "Сумма заказа изменилась; оформите заказ заново."},
	txtRefusePrice:      {"The price of %s has changed; please check out again.", "Цена на «%s» изменилась; оформите заказ заново."},
	txtRefuseGone:       {"%s is no longer available.", "«%s» больше нет в продаже."},
	txtRefuseTryAgain:   {"We could not check your order just now; please try again in a minute.", "Не удалось проверить заказ; попробуйте через минуту."},
	txtStatus:           {"📦 Your order <b>%s</b> is now <b>%s</b>.", "📦 Ваш заказ <b>%s</b> теперь в статусе <b>%s</b>."},
	txtTracking:         {"Tracking: %s", "Отслеживание: %s"},
	txtBackInStock:      {"🔔 <b>%s</b> is back in stock: %s.", "🔔 <b>%s</b> снова в наличии: %s."},
	txtNotifyMe:         {"🔔 Notify me when back", "🔔 Сообщить о поступлении"},
	txtChoose:           {"Choose:", "Выберите:"},
	txtSoldOut:          {"Sorry, this is out of stock.", "Увы, этого нет в наличии."},
}

// text returns a message in the locale's language (English by default).
func text(locale string, k textKey) string {
	t := texts[k]
	if strings.HasPrefix(locale, "ru") {
		return t[1]
	}
	return t[0]
}
