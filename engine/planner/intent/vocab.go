package intent

// Intent vocabulary: phrase lists and word tables, English and Russian side by side.
import (
	"slices"
	"strings"
)

// phrases is a vocabulary list: each phrase is a list of words, and a word
// ending in "*" matches every word it begins. Longer phrases come first,
// so cutting prefers them.
type phrases [][]string

func ph(s string) phrases {
	var out phrases
	for _, p := range strings.Split(s, "|") {
		if w := strings.Fields(p); len(w) > 0 {
			out = append(out, w)
		}
	}
	slices.SortStableFunc(out, func(a, b []string) int { return len(b) - len(a) })
	return out
}

func wordIs(tok, w string) bool {
	if stem, ok := strings.CutSuffix(w, "*"); ok {
		return strings.HasPrefix(tok, stem)
	}
	return tok == w
}

// phraseAt reports whether phrase p occurs at toks[i].
func phraseAt(toks []string, i int, p []string) bool {
	if i < 0 || i+len(p) > len(toks) {
		return false
	}
	for j, w := range p {
		if !wordIs(toks[i+j], w) {
			return false
		}
	}
	return true
}

// matchLen is the length of the longest phrase of ps at toks[i], or 0.
func matchLen(toks []string, i int, ps phrases) int {
	for _, p := range ps {
		if phraseAt(toks, i, p) {
			return len(p)
		}
	}
	return 0
}

// findAny is the index of the first word that starts a phrase of ps, or -1.
func findAny(toks []string, ps phrases) int {
	for i := range toks {
		if matchLen(toks, i, ps) > 0 {
			return i
		}
	}
	return -1
}

func hasPhrase(toks []string, ps phrases) bool { return findAny(toks, ps) >= 0 }

func startsWithPhrase(toks []string, ps phrases) bool { return matchLen(toks, 0, ps) > 0 }

// cutAll removes every occurrence of the phrases of ps.
func cutAll(toks []string, ps phrases) []string {
	var out []string
	for i := 0; i < len(toks); i++ {
		if n := matchLen(toks, i, ps); n > 0 {
			i += n - 1
			continue
		}
		out = append(out, toks[i])
	}
	return out
}

// onlyPhrase reports whether toks is exactly one phrase of ps.
func onlyPhrase(toks []string, ps phrases) bool {
	return matchLen(toks, 0, ps) == len(toks) && len(toks) > 0
}

// allIn reports whether toks consists of phrases of ps only.
func allIn(toks []string, ps phrases) bool { return len(cutAll(toks, ps)) == 0 }

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// ---- vocabulary ----

// commands are what a message can be while checkout waits for a contact
// detail: the whole message, nothing else.
var commands = []struct {
	kind  Kind
	words phrases
}{
	{IntentCancel, vCancel},
	{IntentCart, ph("cart|basket|view cart|my cart|корзина|корзину|моя корзина")},
	{IntentCheckout, ph("checkout|оформить заказ")},
	{IntentOrders, ph("orders|my orders|мои заказы|заказы")},
	{IntentCategories, ph("categories|catalog|каталог|категории")},
	{IntentHelp, ph("help|помощь|help me|помогите")},
	{IntentHuman, ph("human|operator|talk to a human|оператор|позовите оператора")},
}

var sortHints = []struct {
	sort  string
	words phrases
}{
	{"price_asc", ph("cheapest|cheap|cheaper|lowest price|low price|least expensive|inexpensive|budget|affordable|" +
		"дешевле всего|подешевле|дешев*|недорог*|бюджетн*")},
	{"price_desc", ph("most expensive|expensive|priciest|highest price|premium|подороже|самые дорогие|дорог*")},
	{"rating", ph("best rated|top rated|highest rated|best reviewed|top-rated|best-rated|best|" +
		"с лучшим рейтингом|лучшим рейтингом|высоким рейтингом|с хорошими отзывами|лучш*|рейтинг*")},
	{"popular", ph("popular|most popular|bestselling|best selling|best-selling|bestsellers|bestseller|trending|" +
		"популярн*|хит|хиты|хитов|бестселлер*")},
}

var (
	vPolite = ph("please|pls|plz|just|can you|could you|would you|show me|show|me|my|the|a|now|" +
		"пожалуйста|покажи|покажите|мне|мою|мой|мои|ну|же|а")
	vYes = ph("yes|y|yeah|yep|yup|sure|ok|okay|confirm|confirmed|i confirm|correct|right|go ahead|do it|place it|" +
		"place the order|place order|looks good|да|ага|угу|конечно|подтверждаю|подтвердить|подтверди|верно|все верно|" +
		"правильно|ок|оформляй|оформляйте|оформи|давай|давайте|yes please|yes go ahead|go for it|sounds good|all good|" +
		"perfect|that's right|thats right|yes do it|подтверждаю заказ|да оформляйте|можно")
	vNo     = ph("no|nope|nah|not now|don't|dont|нет|неа|не надо|не нужно")
	vCancel = ph("cancel|stop|abort|quit|never mind|nevermind|forget it|cancel checkout|cancel the order|" +
		"отмена|отмени|отменить|отменяю|стоп|передумал|передумала|не надо|хватит")

	vOverride    = ph("ignore|disregard|forget|override|bypass|игнорируй*|игнорир*|проигнорируй*|забудь")
	vRules       = ph("rules|rule|instructions|instruction|prompt|previous|above|guidelines|restrictions|policy|system|правил*|инструкц*|промпт*|ограничен*")
	vJailbreak   = ph("system prompt|developer mode|jailbreak|you are now|режим разработчика|ты теперь|притворись")
	vOtherPeople = ph("other user*|another user|another customer|other customer*|someone else*|somebody else*|all users|" +
		"all customers|every user|everyone's|admin|administrator|чуж*|другого пользовател*|другого клиент*|" +
		"других пользовател*|других клиент*|всех пользовател*|всех клиент*|админ*")
	vAccount = ph("user|users|customer|customers|client|account|shopper|userid|user_id|user id|customer id|" +
		"пользовател*|клиент*|покупател*|аккаунт*")

	vSetVerb = ph("set|change|update|make|edit|lower|reduce|raise|increase|decrease|modify|" +
		"установи*|постав*|измени*|поменя*|сделай|снизь|подними|уменьши|увеличь|исправь")
	vShopData = ph("price|prices|pricing|cost|costs|stock|inventory|rating|ratings|review|reviews|" +
		"цен*|стоимост*|склад*|остат*|рейтинг*|отзыв*")
	vFreebie = ph("for free|free of charge|100% off|discount|discounts|coupon|бесплатно|даром|скидк*|промокод*")

	vCompare      = ph("compare|comparison|versus|vs|difference between|differences|сравни*|сравнен*|разниц*|отличи*|отлича*")
	vSimilar      = ph("more like|something like|similar to|similar|like this|like that|like it|alternatives|alternative|something else|похож*|аналог*|подобн*|вроде этого|такое же|такой же|такие же")
	vAvailability = ph("in stock|available|availability|how many left|how many are left|в наличии|наличи*|есть ли|остал*")
	vDetails      = ph("details|detail|more about|tell me about|tell me more|more info|info|information|describe|specs|" +
		"specifications|what is|подробн*|расскажи*|описани*|характеристик*|что за|инфо*")

	vClear  = ph("clear|empty|очисти*|очистить|опустош*")
	vRemove = ph("remove|delete|take out|drop|get rid of|убер*|убра*|удали*|удалить|выкин*|исключи*")
	vAdd    = ph("add|добав*|полож*|докинь|закинь")
	vBuy    = ph("buy|take|i'll take|ill take|get|order|purchase|want|give me|gimme|купи*|куплю|беру|возьм*|закаж*|хочу|давай|давайте|дай|дайте")
	vToCart = ph("to cart|to the cart|to my cart|into cart|in cart|in the cart|into the cart|into my cart|in my cart|" +
		"to basket|to the basket|to my basket|in my basket|into my basket|в корзину")
	vCartWord = ph("cart|basket|trolley|корзин*")
	vCheckout = ph("checkout|check out|place order|place the order|place an order|place my order|complete order|" +
		"complete my order|complete the order|complete purchase|proceed to checkout|pay|оформ*|оплат*|заказать")
	vOrders = ph("orders|my order|order status|status of my order|where is my order|where's my order|track*|" +
		"заказы|мой заказ|мои заказы|статус заказа|где заказ|где мой заказ|моего заказа|моих заказов")
	vCategories = ph("categories|category|catalog|catalogue|departments|sections|what do you sell|what you sell|" +
		"каталог*|категори*|раздел*|что вы продаете|что продаете|что у вас есть")
	vHuman = ph("human|operator|real person|live person|live agent|a person|customer service|customer support|" +
		"support team|talk to someone|speak to someone|оператор*|живой человек|живого человека|с человеком|" +
		"позови человека|позовите человека|нужен человек|менеджер*|поддержк*|консультант*")
	vPopular = ph("popular|most popular|bestsellers|bestseller|best sellers|best seller|best selling|best-selling|top selling|top sellers|top-selling|trending|what's hot|популярн*|хит|хиты|хитов|бестселлер*|топ продаж|что покупают|чаще всего покупают|people buy|people usually buy|do people buy|usually buy|most bought|покупают|берут")
	vMore    = ph("more|next|next page|page|others|other|another page|rest|else|" +
		"еще|дальше|следующ*|другие|остальные|страниц*")
	vMoreFiller = ph("options|results|ones|them|of|those|these|please|pls|any|else|what|other|than|here|" +
		"пожалуйста|варианты|вариантов|покажи|ли|есть")
	vPopularFiller = ph("right now|now|these days|this week|today|at the moment|currently|here|usually|people|" +
		"do people buy|people buy|buy|buying|selling|sells|sell|hot|in demand|сейчас|обычно|у вас|в моде|покупают|берут")
	vShoppingList = ph("shopping list|grocery list|список покупок|список продуктов")
	vBudget       = ph("budget|under|up to|within|max|бюджет*|до|в пределах")
	vStats        = ph("statistics|stats|spending|how much did i spend|how much have i spent|purchase history|статистик*|сколько я потратил*|мои расходы|расходы")

	vGreeting = ph("hi|hello|hey|hiya|good morning|good afternoon|good evening|howdy|start|" +
		"привет|здравствуй*|добрый день|добрый вечер|доброе утро|хай|салют")
	vHelp   = ph("help|help me|what can you do|how does this work|how does it work|commands|menu|помощь|помоги*|что ты умеешь|что умеешь|команды|меню")
	vThanks = ph("thanks|thank you|thx|ty|cheers|great|спасибо|благодарю|спс|отлично|супер")

	vFiller = ph("show me|show|me|i|i'm|im|i'd|want|wanna|need|would|like|looking|look|for|find|search|searching|get|" +
		"got|have|has|do|does|you|your|any|some|a|an|the|of|with|in|on|at|to|and|or|can|could|please|pls|something|" +
		"anything|items|item|products|product|stuff|options|what|what's|whats|which|there|are|is|it|it's|one|ones|from|" +
		"about|this|that|these|those|be|let|let's|see|most|my|more|at home|for home|" +
		"покажи|покажите|показать|хочу|хотел|хотела|хотим|бы|найди|найдите|найти|ищу|поищи|нужны|нужен|нужна|нужно|" +
		"надо|есть|ли|у|вас|мне|пожалуйста|какие|какой|какая|какое|подбери|посоветуй*|что-нибудь|что-то|что|товары|" +
		"товар|для|и|в|с|на|по|из|о|об|про|а|же|мой|мою|мои|можно|еще|то|так|вот|там|самые|самый|самая|самое")
)

var (
	vFocus      = wordSet("it this этот эту это этого этому этом его ее него нее ней этой")
	vNumberWord = wordSet("number num no item id номер товар позиция позицию")
	vUnit       = wordSet("pcs pieces piece units unit x шт штук штуки штука of packs pack bags bottles пачки пачек пачку упаковки упаковок бутылки")
	vOrdinalEN  = map[string]int{
		"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5, "5th": 5,
		"sixth": 6, "6th": 6, "seventh": 7, "7th": 7, "eighth": 8, "8th": 8, "ninth": 9, "9th": 9, "tenth": 10, "10th": 10,
		"last": -1,
	}
	vOrdinalRU = []struct {
		stem string
		pos  int
	}{
		{"перв", 1}, {"втор", 2}, {"трет", 3}, {"четверт", 4}, {"пят", 5}, {"шест", 6}, {"седьм", 7},
		{"восьм", 8}, {"девят", 9}, {"десят", 10}, {"последн", -1},
	}
	vOrdinalEndRU = wordSet("ый ой ий ая ое ее ую юю ого его ому ему ом ем ые ие ых их ья ье ью ьего ьему ьем ей яя")
	vNumberEN     = map[string]int{
		"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
		"couple": 2, "pair": 2, "dozen": 12,
	}
	vNumberRU = map[string]int{
		"один": 1, "одну": 1, "одна": 1, "одного": 1, "два": 2, "две": 2, "двух": 2, "три": 3, "трех": 3,
		"четыре": 4, "пять": 5, "шесть": 6, "семь": 7, "восемь": 8, "девять": 9, "десять": 10, "пару": 2,
	}
	vPeriod = []struct {
		word string
		days int
	}{
		{"day", 1}, {"days", 1}, {"week", 7}, {"weeks", 7}, {"month", 30}, {"months", 30}, {"year", 365},
		{"дн*", 1}, {"день", 1}, {"сутки", 1}, {"недел*", 7}, {"месяц*", 30}, {"год", 365}, {"года", 365}, {"лет", 365},
	}
)

// fieldPrefixes are lead-ins shoppers type before a contact detail.
var fieldPrefixes = map[string][]string{
	"name":    {"my name is", "name", "меня зовут", "моё имя", "мое имя", "имя"},
	"phone":   {"my phone number is", "my phone is", "my number is", "phone", "мой телефон", "мой номер", "телефон", "тел"},
	"address": {"my address is", "ship to", "deliver to", "address", "мой адрес", "адрес доставки", "адрес"},
}

var ruEndings = []string{"ами", "ями", "ого", "его", "ому", "ему", "ыми", "ими", "ов", "ев", "ей", "ий", "ый", "ой",
	"ая", "яя", "ое", "ее", "ые", "ие", "ам", "ям", "ах", "ях", "ом", "ем", "ую", "юю", "а", "я", "ы", "и", "у", "ю", "о", "е", "ь"}

// glossaryRU maps Russian shopping words (by stem) to the words of the
// catalog, which is mostly in English, where the shipped lexicon
// (lexicon.go) has no group for the word or names another one (a «коврик»
// in a shop is more often a yoga mat than a rug). It is checked first.
// Longer stems come first.
var glossaryRU = []struct{ stem, en string }{
	{"кроссов", "running shoe"}, {"беговы", "running"}, {"кед", "sneaker"},
	{"ботин", "boot"}, {"сандал", "sandal"}, {"дождевик", "rain jacket"},
	{"кофе", "coffee"}, {"чай", "tea"}, {"крем", "cream"}, {"парфюм", "fragrance"}, {"роман", "novel"},
	{"корм", "food"}, {"диван", "sofa"}, {"кресл", "chair"}, {"водонепроницаем", "waterproof"},
	{"непромокаем", "waterproof"}, {"беспровод", "wireless"}, {"зимн", "winter"}, {"кожан", "leather"},
	{"коврик", "mat"},
}
