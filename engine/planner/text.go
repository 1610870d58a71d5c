package planner

import (
	"fmt"
	"strings"
	"text/template"

	"shopbot/engine/view"
)

// The offline planner's words, one table per language. Every figure in a
// reply (titles, prices, counts, order numbers) comes from the data the
// template is given, which comes from tool results; the templates add
// only connecting words. Labels of quick replies, status and field names
// live here too.

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
	rOrders         replyKey = "orders"
	rOrder          replyKey = "order"
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
	rMoreOrders     replyKey = "more_orders" // paging.go
	rListEnd        replyKey = "list_end"
	rStaleList      replyKey = "stale_list"
	rPersonal       replyKey = "personal"
	rNoMatch        replyKey = "no_match"
	rPick           replyKey = "pick"       // variants.go
	rOptionOut      replyKey = "option_out" // variants.go
)

// Shared pieces, defined once per language and used by the templates
// above with {{template "items" .}}.
const (
	enItems = `{{define "items"}}{{range $i, $c := .}}
{{inc $i}}. {{$c.Title}} — {{price $c.PriceText}}{{if not $c.InStock}} (out of stock){{end}}{{end}}{{end}}`
	ruItems = `{{define "items"}}{{range $i, $c := .}}
{{inc $i}}. {{$c.Title}} — {{price $c.PriceText}}{{if not $c.InStock}} (нет в наличии){{end}}{{end}}{{end}}`
	enLimit = `{{define "limit"}}{{if and .Min .Max}} from {{.Min}} to {{.Max}}{{else if .Max}} up to {{.Max}}{{else if .Min}} from {{.Min}}{{end}}{{end}}`
	ruLimit = `{{define "limit"}}{{if and .Min .Max}} от {{.Min}} до {{.Max}}{{else if .Max}} до {{.Max}}{{else if .Min}} от {{.Min}}{{end}}{{end}}`
)

var replyTexts = map[string]map[replyKey]string{
	"en": {
		rHelp: `I can find products, add them to your cart and place your order. Try "running shoes under 100", ` +
			`"add the first one", "cart", "checkout", "my orders", "categories" or "what's popular".`,
		rOwnData:      `I can only help with your own shopping: your searches, your cart and your orders. What are you looking for?`,
		rGreeting:     `Hi! What are you looking for today? Try "running shoes under 100", "categories" or "what's popular".`,
		rThanks:       `You're welcome! Anything else I can find for you?`,
		rShopData:     `Sorry, I can't change prices, stock or reviews: I can only show what the catalog says. Shall I look for something within your budget?`,
		rFound:        `Found {{.Total}} {{plural .Total "product" "products"}}{{template "limit" .}}{{if gt .Total (len .Cards)}}, here are {{len .Cards}}{{end}}:{{template "items" .Cards}}`,
		rNothing:      `Sorry, I found nothing{{with .Query}} for "{{.}}"{{end}}{{template "limit" .}}. Try other words or browse the categories.`,
		rAdded:        `Added {{.Qty}} × {{.Title}} to your cart. Cart: {{.Units}} {{plural .Units "item" "items"}}, {{.Total}}.`,
		rPick:         `Which {{.Option}} of {{.Title}}{{with .Chosen}} ({{.}}){{end}}? In stock: {{join .Values ", "}}.`,
		rOptionOut:    `Sorry, {{.Title}}{{with .Asked}} in {{.}}{{end}} is not in stock right now.{{if .Notify}} I can message you when it is back.{{end}}`,
		rUpdated:      `Now {{.Qty}} × {{.Title}} in your cart. Cart: {{.Units}} {{plural .Units "item" "items"}}, {{.Total}}.`,
		rRemoved:      `Removed {{.Title}} from your cart.{{if .Units}} Cart: {{.Units}} {{plural .Units "item" "items"}}, {{.Total}}.{{else}} Your cart is empty now.{{end}}`,
		rCart:         `Your cart:{{range $i, $l := .Lines}}` + "\n" + `{{inc $i}}. {{$l.Title}}{{with $l.Variant}} ({{.}}){{end}} × {{$l.Qty}} — {{$l.PriceText}}{{end}}` + "\n" + `Total: {{.TotalText}}. Say "checkout" to place the order.`,
		rCartEmpty:    `Your cart is empty. Tell me what you're looking for!`,
		rCleared:      `Done: your cart is empty now.`,
		rNotInCart:    `I couldn't find "{{.}}" in your cart.`,
		rNoShown:      `I haven't shown you any products yet. Tell me what you're looking for, e.g. "running shoes under 100".`,
		rOutOfRange:   `I showed {{.N}} {{plural .N "product" "products"}}, so there is no number {{.Pos}}. Which one do you mean?`,
		rWhich:        `Which product do you mean? Say "the first", "the second"…`,
		rNeedTwo:      `Tell me which products to compare, e.g. "compare the first and the second".`,
		rDetails:      `{{.Title}}{{with .Brand}} by {{.}}{{end}}: {{.PriceText}}, {{if .InStock}}in stock ({{.Stock}}){{else}}out of stock{{end}}.{{if .RatingCount}} Rated {{printf "%.1f" .Rating}}/5 by {{.RatingCount}} shoppers.{{end}}{{with .Summary}}` + "\n" + `{{.}}{{end}}`,
		rSimilar:      `Similar products:{{template "items" .}}`,
		rCompare:      `Side by side:{{template "items" .Cards}}{{with .Cheapest}}` + "\n" + `Lowest price: {{.}}.{{end}}{{with .BestRated}} Best rated: {{.}}.{{end}}{{with .Differences}} They differ in: {{join . ", "}}.{{end}}`,
		rAvailability: `{{.Title}}: {{if .NoLongerSold}}no longer sold{{else if eq .Status "out_of_stock"}}out of stock{{else if eq .Status "low_stock"}}only {{.Stock}} left{{else}}in stock ({{.Stock}} available){{end}}.`,
		rReviews:      `{{.Title}}: {{if .Count}}rated {{printf "%.1f" .Rating}}/5 by {{.Count}} shoppers.{{else}}no ratings yet.{{end}}{{range .Highlights}}` + "\n" + `★{{.Rating}} {{.Author}}: “{{.Text}}”{{end}}`,
		rCategories:   `{{if .Parent}}Categories in {{.Parent}}:{{else}}Our categories:{{end}}{{range .Categories}}` + "\n" + `• {{.Name}} ({{.Products}}){{end}}`,
		rPopular:      `Our best sellers right now:{{template "items" .}}`,
		rOrders:       `Your recent orders:{{range .}}` + "\n" + `• {{.Number}}: {{status .Status}}, {{.Total}}, {{.Date}}{{end}}`,
		rOrder:        `Order {{.Number}}: {{status .Status}}, {{.Total}}, placed {{.Date}}.{{with .Tracking}} Tracking: {{.}}.{{end}}{{range .Lines}}` + "\n" + `• {{.Title}} × {{.Qty}}{{end}}`,
		rNoOrders:     `You have no orders yet.`,
		rNoSuchOrder:  `I couldn't find that order among yours. Please check the number (it looks like SB-XXXXXXXX).`,
		rAsk:          `{{if eq . "name"}}Let's place your order. What name should it be under?{{else if eq . "phone"}}Thanks! What phone number can we reach you at?{{else}}And the delivery address?{{end}}`,
		rInvalidField: `That {{field .Field}} doesn't look right{{with .Reason}} ({{.}}){{end}}. Please send it again, or say "cancel".`,
		rSummary: `{{if .Changed}}Your cart or prices changed, so here is the updated order.` + "\n" + `{{end}}Please check your order:{{range .Lines}}` + "\n" +
			`• {{.Title}}{{with .Variant}} ({{.}}){{end}} × {{.Qty}} — {{.LineTotal}}{{end}}` + "\n" + `{{with .Promo}}{{with .Discount}}Promo {{$.Promo.Code}}: {{.}}` + "\n" + `{{end}}{{end}}{{with .Delivery}}Subtotal: {{$.Subtotal}}` + "\n" + `Delivery: {{.}} — {{$.DeliveryPrice}}` + "\n" + `{{end}}Total: {{.Total}}` + "\n" +
			`Name: {{.Contact.Name}}` + "\n" + `Phone: {{.Contact.Phone}}` + "\n" + `Address: {{.Contact.Address}}` + "\n" +
			`Reply "yes" to place the order or "cancel" to stop.`,
		rPlaced:        `Thank you! Your order {{.Number}} is placed. Total: {{.Total}}.`,
		rCancelled:     `OK, I've stopped the checkout. Your cart is as it was.`,
		rNothingToStop: `There's nothing to cancel. What can I find for you?`,
		rEmptyCheckout: `Your cart is empty: add something first, then say "checkout".`,
		rHuman:         `I've asked a member of our team to join. They will reply in this chat.`,
		rToolError:     `Sorry, I couldn't do that: {{.}}`,
		rCantDo:        `Sorry, I couldn't do that. Could you say it another way?`,
		rTooMany:       `Sorry, one order can hold at most {{.}} of a product.`,
		rList: `{{if .Empty}}You haven't bought anything here yet, so I can't predict a list. Tell me what you need!` +
			`{{else if not .Items}}Nothing is due{{with .DaysAhead}} in the next {{.}} days{{end}}.{{with .NextDue}} Next up: {{.Title}} around {{.Due}}.{{end}}` +
			`{{else}}Your shopping list{{with .DaysAhead}} for the next {{.}} days{{end}}:{{range $i, $it := .Items}}` + "\n" +
			`{{inc $i}}. {{$it.Title}} × {{$it.Qty}} — {{$it.LineTotal}}{{if not $it.InStock}} (out of stock){{end}}{{end}}` + "\n" +
			`Total: {{.Total}}{{with .Budget}} (budget {{.}}){{end}}{{with .OverBudget}}` + "\n" +
			`Over the budget: {{range $i, $it := .}}{{if $i}}, {{end}}{{$it.Title}}{{end}}{{end}}{{end}}`,
		rStats: `{{if .Empty}}You have no purchases in the last {{.PeriodDays}} days.{{else}}In the last {{.PeriodDays}} days: ` +
			`{{.Orders}} {{plural .Orders "order" "orders"}}, {{.Units}} {{plural .Units "item" "items"}}, {{.Spend}} in total.` +
			`{{range $i, $it := .Items}}{{if lt $i 5}}` + "\n" + `• {{$it.Title}} × {{$it.Quantity}} — {{$it.Spend}}{{end}}{{end}}{{end}}`,
		rCheckoutStatus: `The checkout didn't finish. Please say "checkout" to try again.`,
		rMore:           `More products:{{template "items" .}}`,
		rNoMore:         `There are no more products for that search. Try other words or browse the categories.`,
		rMoreOrders:     `More of your orders:{{range .}}` + "\n" + `• {{.Number}}: {{status .Status}}, {{.Total}}, {{.Date}}{{end}}`,
		rListEnd:        `That's the whole list: there is nothing more to show.`,
		rStaleList:      `That list has changed since: ask me again and I'll show it from the start.`,
		rNoListing:      `There is no list to continue right now. Tell me what you're looking for, e.g. "running shoes under 100".`,
		rPersonal:       `That looks like contact details. I only need them when you place an order, so I haven't saved or searched for them. Say "checkout" when your cart is ready.`,
		rNoMatch:        `Sorry, we have nothing that matches "{{.Query}}"{{with .Missing}} (no {{join . ", "}}){{end}}.{{with .Categories}} Perhaps one of our categories: {{join . ", "}}?{{end}}`,
		"btn.cart":      "🛒 Cart",
		"btn.checkout":  "Checkout",
		"btn.confirm":   "✅ Place the order",
		"btn.cats":      "Categories",
		"btn.orders":    "My orders",
		"btn.add":       "Add #1 to cart",
		"btn.add1":      "Add to cart",
		"btn.notify":    "🔔 Notify me",
		"btn.similar":   "Similar",
		"field.name":    "name",
		"field.phone":   "phone number",
		"field.address": "address",
		"status.new":    "received", "status.paid": "paid", "status.shipped": "shipped",
		"status.delivered": "delivered", "status.cancelled": "cancelled",
	},
	"ru": {
		rHelp: `Я найду товары, добавлю их в корзину и оформлю заказ. Попробуйте: «кроссовки до 100», «добавь первый», ` +
			`«корзина», «оформить заказ», «мои заказы», «каталог» или «популярное».`,
		rOwnData:      `Я помогаю только с вашими собственными покупками: поиском, вашей корзиной и вашими заказами. Что вы ищете?`,
		rGreeting:     `Здравствуйте! Что ищете сегодня? Например: «кроссовки до 100», «каталог» или «популярное».`,
		rThanks:       `Пожалуйста! Найти что-нибудь ещё?`,
		rShopData:     `Извините, я не могу менять цены, остатки или отзывы: я показываю только то, что есть в каталоге. Подобрать что-нибудь в рамках вашего бюджета?`,
		rFound:        `Нашёл {{.Total}} {{plural .Total "товар" "товара" "товаров"}}{{template "limit" .}}{{if gt .Total (len .Cards)}}, вот {{len .Cards}}{{end}}:{{template "items" .Cards}}`,
		rNothing:      `К сожалению, ничего не нашёл{{with .Query}} по запросу «{{.}}»{{end}}{{template "limit" .}}. Попробуйте другие слова или загляните в каталог.`,
		rAdded:        `Добавил в корзину: {{.Title}} × {{.Qty}}. В корзине {{.Units}} {{plural .Units "товар" "товара" "товаров"}} на {{.Total}}.`,
		rPick:         `{{.Title}}{{with .Chosen}} ({{.}}){{end}} — выберите {{.Option}}. В наличии: {{join .Values ", "}}.`,
		rOptionOut:    `Извините, {{.Title}}{{with .Asked}} ({{.}}){{end}} сейчас нет в наличии.{{if .Notify}} Могу написать, когда появится.{{end}}`,
		rUpdated:      `Теперь в корзине {{.Title}} × {{.Qty}}. Всего {{.Units}} {{plural .Units "товар" "товара" "товаров"}} на {{.Total}}.`,
		rRemoved:      `Убрал из корзины: {{.Title}}.{{if .Units}} В корзине {{.Units}} {{plural .Units "товар" "товара" "товаров"}} на {{.Total}}.{{else}} Корзина теперь пуста.{{end}}`,
		rCart:         `Ваша корзина:{{range $i, $l := .Lines}}` + "\n" + `{{inc $i}}. {{$l.Title}}{{with $l.Variant}} ({{.}}){{end}} × {{$l.Qty}} — {{$l.PriceText}}{{end}}` + "\n" + `Итого: {{.TotalText}}. Напишите «оформить заказ», чтобы оформить.`,
		rCartEmpty:    `Корзина пуста. Расскажите, что вы ищете!`,
		rCleared:      `Готово: корзина пуста.`,
		rNotInCart:    `Не нашёл «{{.}}» в вашей корзине.`,
		rNoShown:      `Я ещё не показывал вам товары. Напишите, что ищете, например: «кроссовки до 100».`,
		rOutOfRange:   `Я показал {{.N}} {{plural .N "товар" "товара" "товаров"}}, номера {{.Pos}} нет. Какой вы имеете в виду?`,
		rWhich:        `Какой товар вы имеете в виду? Скажите «первый», «второй»…`,
		rNeedTwo:      `Скажите, какие товары сравнить, например: «сравни первый и второй».`,
		rDetails:      `{{.Title}}{{with .Brand}} ({{.}}){{end}}: {{price .PriceText}}, {{if .InStock}}в наличии ({{.Stock}} шт.){{else}}нет в наличии{{end}}.{{if .RatingCount}} Рейтинг {{printf "%.1f" .Rating}}/5, оценок: {{.RatingCount}}.{{end}}{{with .Summary}}` + "\n" + `{{.}}{{end}}`,
		rSimilar:      `Похожие товары:{{template "items" .}}`,
		rCompare:      `Сравнение:{{template "items" .Cards}}{{with .Cheapest}}` + "\n" + `Дешевле всего: {{.}}.{{end}}{{with .BestRated}} Лучший рейтинг: {{.}}.{{end}}{{with .Differences}} Различаются: {{join . ", "}}.{{end}}`,
		rAvailability: `{{.Title}}: {{if .NoLongerSold}}больше не продаётся{{else if eq .Status "out_of_stock"}}нет в наличии{{else if eq .Status "low_stock"}}осталось всего {{.Stock}} шт.{{else}}в наличии ({{.Stock}} шт.){{end}}.`,
		rReviews:      `{{.Title}}: {{if .Count}}рейтинг {{printf "%.1f" .Rating}}/5, оценок: {{.Count}}.{{else}}оценок пока нет.{{end}}{{range .Highlights}}` + "\n" + `★{{.Rating}} {{.Author}}: «{{.Text}}»{{end}}`,
		rCategories:   `{{if .Parent}}Разделы в «{{.Parent}}»:{{else}}Наш каталог:{{end}}{{range .Categories}}` + "\n" + `• {{.Name}} ({{.Products}}){{end}}`,
		rPopular:      `Сейчас чаще всего покупают:{{template "items" .}}`,
		rOrders:       `Ваши последние заказы:{{range .}}` + "\n" + `• {{.Number}}: {{status .Status}}, {{.Total}}, {{.Date}}{{end}}`,
		rOrder:        `Заказ {{.Number}}: {{status .Status}}, {{.Total}}, от {{.Date}}.{{with .Tracking}} Отслеживание: {{.}}.{{end}}{{range .Lines}}` + "\n" + `• {{.Title}} × {{.Qty}}{{end}}`,
		rNoOrders:     `У вас пока нет заказов.`,
		rNoSuchOrder:  `Не нашёл такого заказа среди ваших. Проверьте номер (он выглядит как SB-XXXXXXXX).`,
		rAsk:          `{{if eq . "name"}}Оформляем заказ. На чьё имя?{{else if eq . "phone"}}Спасибо! Какой номер телефона для связи?{{else}}И адрес доставки?{{end}}`,
		rInvalidField: `Похоже, {{field .Field}} указан неверно. Пришлите ещё раз или напишите «отмена».`,
		rSummary: `{{if .Changed}}Корзина или цены изменились, вот обновлённый заказ.` + "\n" + `{{end}}Проверьте заказ:{{range .Lines}}` + "\n" +
			`• {{.Title}}{{with .Variant}} ({{.}}){{end}} × {{.Qty}} — {{.LineTotal}}{{end}}` + "\n" + `{{with .Promo}}{{with .Discount}}Промокод {{$.Promo.Code}}: {{.}}` + "\n" + `{{end}}{{end}}{{with .Delivery}}Товары: {{$.Subtotal}}` + "\n" + `Доставка: {{.}} — {{if eq $.DeliveryPrice "` + view.FreeDelivery + `"}}бесплатно{{else}}{{$.DeliveryPrice}}{{end}}` + "\n" + `{{end}}Итого: {{.Total}}` + "\n" +
			`Имя: {{.Contact.Name}}` + "\n" + `Телефон: {{.Contact.Phone}}` + "\n" + `Адрес: {{.Contact.Address}}` + "\n" +
			`Ответьте «да», чтобы оформить заказ, или «отмена».`,
		rPlaced:        `Спасибо! Заказ {{.Number}} оформлен. Сумма: {{.Total}}.`,
		rCancelled:     `Хорошо, оформление отменено. Корзина осталась как была.`,
		rNothingToStop: `Отменять нечего. Что вам подобрать?`,
		rEmptyCheckout: `Корзина пуста: сначала добавьте товары, потом напишите «оформить заказ».`,
		rHuman:         `Я позвал сотрудника магазина. Он ответит в этом чате.`,
		rToolError:     `Извините, не получилось: {{.}}`,
		rCantDo:        `Извините, не получилось. Скажите, пожалуйста, по-другому.`,
		rTooMany:       `Извините, в одном заказе может быть не больше {{.}} шт. одного товара.`,
		rList: `{{if .Empty}}Вы у нас ещё ничего не покупали, поэтому список составить не из чего. Скажите, что вам нужно!` +
			`{{else if not .Items}}Ничего не нужно докупать{{with .DaysAhead}} в ближайшие {{.}} {{plural . "день" "дня" "дней"}}{{end}}.{{with .NextDue}} Следующее: {{.Title}} примерно {{.Due}}.{{end}}` +
			`{{else}}Ваш список покупок{{with .DaysAhead}} на {{.}} {{plural . "день" "дня" "дней"}}{{end}}:{{range $i, $it := .Items}}` + "\n" +
			`{{inc $i}}. {{$it.Title}} × {{$it.Qty}} — {{$it.LineTotal}}{{if not $it.InStock}} (нет в наличии){{end}}{{end}}` + "\n" +
			`Итого: {{.Total}}{{with .Budget}} (бюджет {{.}}){{end}}{{with .OverBudget}}` + "\n" +
			`Не вошло в бюджет: {{range $i, $it := .}}{{if $i}}, {{end}}{{$it.Title}}{{end}}{{end}}{{end}}`,
		rStats: `{{if .Empty}}За последние {{.PeriodDays}} {{plural .PeriodDays "день" "дня" "дней"}} покупок не было.{{else}}За последние {{.PeriodDays}} {{plural .PeriodDays "день" "дня" "дней"}}: ` +
			`{{.Orders}} {{plural .Orders "заказ" "заказа" "заказов"}}, {{.Units}} {{plural .Units "товар" "товара" "товаров"}}, всего {{.Spend}}.` +
			`{{range $i, $it := .Items}}{{if lt $i 5}}` + "\n" + `• {{$it.Title}} × {{$it.Quantity}} — {{$it.Spend}}{{end}}{{end}}{{end}}`,
		rCheckoutStatus: `Оформление не завершилось. Напишите «оформить заказ», чтобы попробовать снова.`,
		rMore:           `Ещё товары:{{template "items" .}}`,
		rNoMore:         `Больше товаров по этому запросу нет. Попробуйте другие слова или загляните в каталог.`,
		rMoreOrders:     `Ещё ваши заказы:{{range .}}` + "\n" + `• {{.Number}}: {{status .Status}}, {{.Total}}, {{.Date}}{{end}}`,
		rListEnd:        `Это весь список: больше показать нечего.`,
		rStaleList:      `Этот список уже сменился: спросите ещё раз, и я покажу его с начала.`,
		rNoListing:      `Сейчас нечего продолжать: списка нет. Напишите, что вам нужно, например «кроссовки до 100».`,
		rPersonal:       `Похоже, это контактные данные. Они нужны только при оформлении заказа, поэтому я их не сохранил и не искал. Напишите «оформить заказ», когда корзина будет готова.`,
		rNoMatch:        `К сожалению, у нас нет ничего по запросу «{{.Query}}»{{with .Missing}} (нет: {{join . ", "}}){{end}}.{{with .Categories}} Может быть, подойдёт одна из категорий: {{join . ", "}}?{{end}}`,
		"btn.cart":      "🛒 Корзина",
		"btn.checkout":  "Оформить заказ",
		"btn.confirm":   "✅ Оформить",
		"btn.cats":      "Каталог",
		"btn.orders":    "Мои заказы",
		"btn.add":       "Добавить №1 в корзину",
		"btn.add1":      "В корзину",
		"btn.notify":    "🔔 Сообщить о поступлении",
		"btn.similar":   "Похожие",
		"field.name":    "имя",
		"field.phone":   "телефон",
		"field.address": "адрес",
		"status.new":    "принят", "status.paid": "оплачен", "status.shipped": "отправлен",
		"status.delivered": "доставлен", "status.cancelled": "отменён",
	},
}

// replyTemplates are the tables parsed once; a broken template is a
// programming error caught by the tests, which render every one.
var replyTemplates = parseReplies()

func parseReplies() map[string]*template.Template {
	shared := map[string]string{"en": enItems + enLimit, "ru": ruItems + ruLimit}
	out := map[string]*template.Template{}
	for lang, table := range replyTexts {
		root := template.New(lang).Funcs(replyFuncs(lang))
		template.Must(root.Parse(shared[lang]))
		for key, text := range table {
			template.Must(root.New(string(key)).Parse(text))
		}
		out[lang] = root
	}
	return out
}

func replyFuncs(lang string) template.FuncMap {
	word := func(prefix, s string) string {
		if w, ok := replyTexts[lang][replyKey(prefix+s)]; ok {
			return w
		}
		return s
	}
	return template.FuncMap{
		"inc":    func(i int) int { return i + 1 },
		"join":   strings.Join,
		"plural": plural,
		"status": func(s string) string { return word("status.", s) },
		"field":  func(s string) string { return word("field.", s) },
		"price":  func(s string) string { return view.PriceTextIn(lang, s) },
	}
}

// plural picks a form: two forms are English (one, other), three are
// Russian (1 товар, 2 товара, 5 товаров).
func plural(n int, forms ...string) string {
	if len(forms) == 0 {
		return ""
	}
	if len(forms) < 3 {
		if n == 1 || len(forms) == 1 {
			return forms[0]
		}
		return forms[1]
	}
	n10, n100 := n%10, n%100
	switch {
	case n10 == 1 && n100 != 11:
		return forms[0]
	case n10 >= 2 && n10 <= 4 && (n100 < 10 || n100 >= 20):
		return forms[1]
	}
	return forms[2]
}

// renderReply fills a reply template in lang (English when lang is unknown).
func renderReply(lang string, key replyKey, data any) (string, error) {
	t, ok := replyTemplates[lang]
	if !ok {
		t = replyTemplates["en"]
	}
	var b strings.Builder
	if err := t.ExecuteTemplate(&b, string(key), data); err != nil {
		return "", fmt.Errorf("engine: planner reply %s/%s: %w", lang, key, err)
	}
	return b.String(), nil
}

// replyLabel is a button label or other plain word of the table.
func replyLabel(lang string, key replyKey) string {
	if w, ok := replyTexts[lang][key]; ok {
		return w
	}
	return replyTexts["en"][key]
}
