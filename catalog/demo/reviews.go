package demo

import (
	"hash/fnv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The demo reviews are worth searching: the hand-written ones (data/*.jsonl)
// get a title naming what they speak of, and about one product in five has
// its last review replaced by a critical one about a problem shoppers of
// its category write about (battery, fit, noise, durability, smell,
// delivery damage…), so "do people complain about…" finds real answers
// and the ratings spread as a real shop's do. Everything is derived from
// the tables below and the SKU's hash: loading twice gives the same shop,
// and the review count does not change.

// reviewTopic is something a review speaks of: words that show it (the
// review's language) and titles by sentiment (good, mixed, bad).
type reviewTopic struct {
	words            []string // prefixes of words of the review
	good, mixed, bad []string
}

var reviewTopicsEN = []reviewTopic{
	{[]string{"battery", "batteries", "charg*"}, []string{"Battery lasts and lasts", "Great battery life"}, []string{"Battery could be better"}, []string{"Battery fades fast"}},
	{[]string{"size", "sizing", "fit", "narrow", "small", "large", "sleeves", "snug", "loose", "toe box"}, []string{"True to size", "Fits perfectly"}, []string{"Check the sizing"}, []string{"Sizing is off"}},
	{[]string{"noise", "noisy", "loud", "quiet", "hum"}, []string{"Nice and quiet", "Blocks out the noise"}, []string{"A bit noisy"}, []string{"Far too loud"}},
	{[]string{"sound", "bass", "audio"}, []string{"Great sound"}, []string{"Sound is decent"}, []string{"Poor sound"}},
	{[]string{"comfort*", "comfy", "blister*"}, []string{"So comfortable", "Comfortable all day"}, []string{"Comfortable, with a catch"}, []string{"Uncomfortable"}},
	{[]string{"smell*", "scent*", "fragrance", "odor"}, []string{"Lovely scent"}, []string{"Scent is so-so"}, []string{"Bad smell"}},
	{[]string{"taste*", "flavo*", "sweet", "bitter", "tasty"}, []string{"Tastes great", "Delicious"}, []string{"Taste is okay"}, []string{"Tastes off"}},
	{[]string{"arrived", "packag*", "delivery", "shipping"}, []string{"Well packed, arrived fast"}, []string{"Fine, but check the packaging"}, []string{"Arrived damaged"}},
	{[]string{"lasts", "last me", "durable", "durability", "sturdy", "tore", "torn", "broke", "worn", "holding up", "still going"}, []string{"Built to last", "Holding up well"}, []string{"Durability is so-so"}, []string{"Fell apart"}},
	{[]string{"grip*", "traction"}, []string{"Excellent grip"}, []string{"Grip is average"}, []string{"Slippery"}},
	{[]string{"warm", "rain", "stayed dry", "bone dry", "waterproof", "windproof"}, []string{"Keeps me warm and dry"}, []string{"Not for the worst weather"}, []string{"Let the weather in"}},
	{[]string{"value", "price", "money", "pricey", "worth it"}, []string{"Great value"}, []string{"Okay for the price"}, []string{"Not worth the money"}},
	{[]string{"easy to", "assembly", "setup", "instructions"}, []string{"Easy to use"}, []string{"Fiddly at first"}, []string{"Hard to set up"}},
}

var reviewTopicsRU = []reviewTopic{
	{[]string{"батаре*", "заряд*", "аккумулятор*"}, []string{"Заряд держит отлично"}, []string{"Батарея могла быть лучше"}, []string{"Батарея быстро садится"}},
	{[]string{"размер*", "маломер*", "большемер*", "сидит*", "рукав*", "длинн*", "коротк*"}, []string{"Размер в размер"}, []string{"Проверьте размер"}, []string{"Не тот размер"}},
	{[]string{"шум*", "громк*", "тих*"}, []string{"Тихий"}, []string{"Немного шумный"}, []string{"Очень шумно"}},
	{[]string{"удобн*", "комфорт*", "мягк*"}, []string{"Очень удобно"}, []string{"Удобно, но есть нюансы"}, []string{"Неудобно"}},
	{[]string{"запах*", "аромат*", "пахн*"}, []string{"Приятный запах"}, []string{"Запах на любителя"}, []string{"Неприятный запах"}},
	{[]string{"вкус*", "гореч*"}, []string{"Вкусно"}, []string{"Вкус обычный"}, []string{"Невкусно"}},
	{[]string{"дожд*", "сух*", "промока*", "продува*", "тепл*"}, []string{"Сухо и тепло"}, []string{"Не для любой погоды"}, []string{"Промокает"}},
	{[]string{"цен*", "деньг*"}, []string{"Хорошая цена"}, []string{"Нормально за свои деньги"}, []string{"Не стоит своих денег"}},
}

// sizeTopic is the index of fit and size in both topic tables; a review
// that says which way a size runs is titled so (sizeTitles: large, small).
const sizeTopic = 1

var sizeTitles = map[bool][2]string{false: {"Runs large", "Runs small"}, true: {"Большемерит", "Маломерит"}}

// generalTitles are for a review that speaks of none of the topics, by
// rating (index 0 is one star).
var generalTitlesEN = [5][]string{
	{"Would not buy again", "Very disappointed"},
	{"Disappointed", "Not as described"},
	{"It's okay", "Mixed feelings"},
	{"Very good", "Happy with it", "Does the job well"},
	{"Love it", "Highly recommend", "Exactly as described", "Excellent"},
}

var generalTitlesRU = [5][]string{
	{"Не рекомендую"}, {"Разочарован"}, {"Нормально"}, {"Хорошая вещь", "Доволен покупкой"}, {"Отлично", "Рекомендую"},
}

// criticalReview is a problem shoppers of a category write about; it fits
// a product whose text has one of when (any product when empty).
type criticalReview struct {
	when   []string
	rating int
	title  string
	body   string
}

// criticalReviews are by top-level category; authors come from
// criticalAuthors.
var criticalReviews = map[string][]criticalReview{
	"Electronics": {
		{[]string{"battery", "wireless"}, 2, "Battery fades fast", "Battery life is nowhere near what the listing says. After two months it barely lasts half a day and loses charge overnight."},
		{[]string{"bluetooth"}, 2, "Keeps dropping the connection", "The Bluetooth connection drops several times a day and pairing it with my phone again is a chore."},
		{nil, 1, "Arrived damaged", "The box was crushed in delivery and the unit would not turn on. The replacement works, but the packaging was far too thin."},
		{[]string{"charger", "laptop", "speaker", "adapter", "power", "console", "monitor"}, 3, "Gets warm and hums", "Does what it should, but it gets warm under load and there is a faint hum you notice in a quiet room."},
	},
	"Shoes": {
		{nil, 2, "Runs a full size small", "Order a size up: my usual size pinched my toes after a few kilometres, and the fit is narrow too."},
		{nil, 3, "Sole wore out quickly", "Comfortable at first, but the outsole wore through after about 300 km. Disappointing durability for the price."},
		{[]string{"waterproof"}, 2, "Not really waterproof", "Water got in within an hour of walking in the rain, so much for waterproof. My socks were soaked."},
		{nil, 3, "Stiff and squeaky", "They needed two weeks to break in and the left shoe squeaks on tiled floors."},
	},
	"Apparel": {
		{nil, 2, "Shrank after one wash", "Shrank a full size after the first wash on cold. The sleeves are too short now."},
		{nil, 3, "Runs large", "The fit is loose and long, I would size down. The fabric feels nice though."},
		{nil, 2, "Seam came apart", "A seam came apart at the shoulder after a month of normal wear. Poor durability."},
	},
	"Home": {
		{nil, 1, "Arrived cracked", "The box was crushed and it arrived cracked. The packaging was just a thin bag, no padding."},
		{nil, 2, "Strong chemical smell", "It had a strong plastic smell out of the box that took more than a week to fade."},
		{[]string{"fan", "motor", "purifier", "vacuum", "humidifier", "speed"}, 3, "Louder than expected", "Does the job, but the noise on the top setting is too loud for a bedroom."},
	},
	"Kitchen": {
		{[]string{"motor", "blend*", "grind*", "mixer", "watt*"}, 2, "The motor is very loud", "Works, but the motor is so loud my kids cover their ears. Noise is a real problem early in the morning."},
		{[]string{"non-stick", "nonstick", "coating", "pan", "skillet"}, 2, "Coating started peeling", "The non-stick coating started peeling after two months of careful use with wooden utensils."},
		{nil, 1, "Arrived dented", "Delivery damage: the box was crushed and it arrived dented. The packaging had no padding at all."},
		{nil, 3, "Hard to clean", "Works well but it is hard to clean; food gets stuck in the corners."},
	},
	"Beauty": {
		{nil, 2, "Smell is overpowering", "The scent is much stronger than expected and gave me a headache. I could not use it daily."},
		{nil, 2, "My skin reacted", "My sensitive skin reacted with redness after two days, so I stopped using it."},
		{nil, 3, "Leaked in delivery", "The bottle leaked in delivery and part of it was in the packaging. What was left works fine."},
	},
	"Grocery": {
		{nil, 2, "Tasted stale", "It tasted stale and the best-before date was only a month away when it arrived."},
		{nil, 1, "Bag arrived torn", "The bag arrived torn open in the box and half of it had spilled. Poor packaging."},
		{[]string{"sweet", "chocolate", "snack", "bar", "bars", "cookies", "granola", "syrup", "jam", "honey"}, 3, "Too sweet for me", "Fine quality, but the taste is too sweet for me."},
	},
	"Pets": {
		{[]string{"toy", "chew", "rope", "ball", "plush", "bed"}, 2, "Destroyed in a day", "My dog chewed through it on the first day. Not durable enough for strong chewers."},
		{[]string{"food", "treats", "kibble"}, 2, "Upset stomach", "Gave my dog an upset stomach after switching, even with a slow two-week transition."},
		{nil, 2, "My pet won't touch it", "Mine sniffed it and walked away; the smell is very strong."},
		{[]string{"collar", "harness", "bed", "coat", "sweater"}, 3, "Runs small", "Check the size chart: it runs small and we had to exchange it for a larger size."},
	},
	"Toys": {
		{nil, 1, "Broke within a week", "A piece snapped off within a week. Cheap plastic, not durable at all."},
		{nil, 3, "Pieces missing", "It arrived with two pieces missing from the box. Support sent them, but it took ten days."},
		{[]string{"battery", "batteries"}, 2, "Eats batteries", "A new set of batteries lasts about three days of play."},
	},
	"Sports": {
		{[]string{"zip*", "backpack", "jacket", "bag", "tent"}, 2, "Zipper broke", "The zipper broke on the second trip and the fabric near it started to tear."},
		{nil, 3, "Heavier than listed", "Works fine, but it is noticeably heavier than the listed weight."},
		{[]string{"mat", "rubber", "yoga", "band"}, 2, "Smells of rubber", "A strong rubber smell that lasted weeks; I had to air it out on the balcony."},
	},
	"Office": {
		{[]string{"chair", "desk", "stand"}, 2, "Squeaks and wobbles", "It started squeaking and wobbling after a month of daily use."},
		{[]string{"pen", "ink", "marker"}, 3, "Ink smears", "The ink smears if you are left-handed and takes a while to dry."},
		{nil, 1, "Arrived damaged", "It arrived with a cracked corner; the packaging was far too thin for the delivery."},
	},
	"Books": {
		{nil, 2, "Pages arrived bent", "The cover and pages arrived bent because it came in a soft envelope. Poor packaging."},
		{nil, 3, "Drags in the middle", "Starts strong, but the middle chapters drag and repeat themselves."},
	},
}

var criticalAuthors = []string{"Nora K.", "Tom B.", "Priya S.", "Greg L.", "Olga V.", "Sam W.", "Mia C.", "Dan F.", "Lena H.", "Ray P."}

// criticalShare: a product whose SKU hashes to 0 modulo it gets a critical
// review (one in five).
const criticalShare = 5

// enrichReviews titles every review of ps and gives some products a
// critical review in place of their last one.
func enrichReviews(ps []Product) {
	critical := 0
	for i := range ps {
		p := &ps[i]
		if len(p.Reviews) >= 3 && skuHash(p.Input.SKU)%criticalShare == 0 && !cyrillic(p.Reviews[0].Text) {
			if c, ok := criticalFor(p, critical); ok {
				p.Reviews[len(p.Reviews)-1] = c
				critical++
			}
		}
		for j := range p.Reviews {
			if p.Reviews[j].Title == "" {
				p.Reviews[j].Title = reviewTitle(p.Reviews[j], i+j)
			}
		}
	}
}

// criticalFor picks the n-th fitting critical review of p's category.
func criticalFor(p *Product, n int) (Review, bool) {
	if len(p.Input.CategoryPath) == 0 {
		return Review{}, false
	}
	text := strings.ToLower(p.Input.Title + " " + p.Input.Description)
	var fit []criticalReview
	for _, c := range criticalReviews[p.Input.CategoryPath[0]] {
		if len(c.when) == 0 || hasAny(text, c.when) {
			fit = append(fit, c)
		}
	}
	if len(fit) == 0 {
		return Review{}, false
	}
	c := fit[n%len(fit)]
	return Review{Author: criticalAuthors[n%len(criticalAuthors)], Rating: c.rating, Title: c.title, Text: c.body}, true
}

// reviewTitle names what a review speaks of, in its language and mood;
// seed picks among equal titles.
func reviewTitle(r Review, seed int) string {
	topics, general := reviewTopicsEN, generalTitlesEN
	if cyrillic(r.Text) {
		topics, general = reviewTopicsRU, generalTitlesRU
	}
	text := strings.ToLower(r.Text)
	mood := 0 // good
	switch {
	case r.Rating <= 2:
		mood = 2
	case r.Rating == 3 || r.Rating == 4 && (strings.Contains(text, " but ") || strings.Contains(text, " но ")):
		mood = 1
	}
	best, at := -1, len(text)
	for i, tp := range topics {
		if k := firstIndex(text, tp.words); k >= 0 && k < at {
			best, at = i, k
		}
	}
	if best == sizeTopic && mood < 2 {
		// "Runs half a size large" is no "true to size".
		switch {
		case hasAny(text, []string{"large", "big", "long", "loose", "size down", "большемер", "длинн"}):
			return sizeTitles[cyrillic(text)][0]
		case hasAny(text, []string{"small", "narrow", "tight", "snug", "size up", "маломер", "коротк"}):
			return sizeTitles[cyrillic(text)][1]
		}
	}
	if best < 0 {
		titles := general[min(max(r.Rating, 1), 5)-1]
		return titles[seed%len(titles)]
	}
	titles := [][]string{topics[best].good, topics[best].mixed, topics[best].bad}[mood]
	return titles[seed%len(titles)]
}

// firstIndex is where the first of words is in text, or -1; a word
// ending in * matches every word it begins.
func firstIndex(text string, words []string) int {
	first := -1
	for _, w := range words {
		p, prefix := strings.CutSuffix(w, "*")
		for k := 0; k < len(text); {
			i := strings.Index(text[k:], p)
			if i < 0 {
				break
			}
			i += k
			if !isLetterBefore(text, i) && (prefix || !isLetterAt(text, i+len(p))) {
				if first < 0 || i < first {
					first = i
				}
				break
			}
			k = i + len(p)
		}
	}
	return first
}

func isLetterBefore(text string, i int) bool {
	r, n := utf8.DecodeLastRuneInString(text[:i])
	return n > 0 && unicode.IsLetter(r)
}

func isLetterAt(text string, i int) bool {
	r, n := utf8.DecodeRuneInString(text[i:])
	return n > 0 && unicode.IsLetter(r)
}

func hasAny(text string, words []string) bool { return firstIndex(text, words) >= 0 }

func cyrillic(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }) >= 0
}

func skuHash(sku string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(sku))
	return h.Sum32()
}
