package intent

import (
	"strconv"
	"strings"
)

// Conversational words (issue 30): what shoppers type around the product
// they mean. vChatter is hesitation, greeting and hedging ("um hi do u
// guys have", "ну короче", "or something"); vSoft are the recipients,
// ages and occasions of a gift ("for my 8 yr old nephew", "подарок сыну"),
// which are soft signals: no product title carries them, so they must not
// be required words of the search. Both are cut before searching.
var (
	vChatter = ph("um|umm|uh|uhh|er|erm|hmm|hmmm|hm|hey|hi|hello|yo|so|ok|okay|well|actually|basically|like|kinda|" +
		"sort of|kind of|or something|or smth|or so|guys|you guys|u|ya|ur|r|do u|wondering|was wondering|i was|" +
		"was|were|if|sell|carry|stock|in stock|any chance|maybe|perhaps|also|too|really|tell|tell me|tell me about|" +
		"info on|still|currently|right now|by any chance|pls|plz|thx|" +
		"эм|эмм|ммм|мм|ну|короче|типа|слушай|слушайте|подскажи|подскажите|вообще|какой-нибудь|какойнибудь|" +
		"какую-нибудь|какуюнибудь|что-нибудь|чтонибудь|нибудь|привет|здравствуйте|расскажи|расскажите|продаете|" +
		"продаёте|в наличии|наличии|случайно|вдруг|тоже|еще|ещё")
	vSoft = ph("gift|gifts|present|presents|birthday|bday|anniversary|christmas|xmas|valentine*|occasion|" +
		"nephew|niece|son|daughter|wife|husband|mom|mum|mother|dad|father|girlfriend|boyfriend|friend|grandma|" +
		"grandpa|kid|boy|girl|toddler|teen|teenager|he|she|he's|she's|hes|shes|who|loves|love|likes|into|lover|fan|" +
		"obsessed|crazy about|aged|age|his|her|old|year|years|yr|yrs|yo|" +
		"подарок|подарка|подарки|подарить|сыну|сына|дочке|дочери|дочь|жене|мужу|маме|папе|бабушке|дедушке|" +
		"ребенку|ребенка|другу|подруге|девушке|парню|племяннику|племяннице|мальчику|девочке|любит|нравится|нравятся|" +
		"увлекается|обожает|фанат|день рождения|на день рождения|др|лет|года|годика|годиков|летнему|летней")
)

// cutConversation drops chatter, gift signals and an age ("8 yr old",
// "6 лет") from search words.
func cutConversation(toks []string) []string {
	var out []string
	for i := 0; i < len(toks); i++ {
		if _, err := strconv.Atoi(toks[i]); err == nil && i+1 < len(toks) && ageWord(toks[i+1]) {
			i++
			continue
		}
		out = append(out, toks[i])
	}
	return cutAll(cutAll(out, vChatter), vSoft)
}

func ageWord(w string) bool {
	switch w {
	case "year", "years", "yr", "yrs", "yo", "y", "лет", "года", "год", "годика", "годиков", "летнему", "летней", "month", "months", "мес", "месяцев":
		return true
	}
	return strings.HasPrefix(w, "year-") || strings.HasSuffix(w, "yo")
}

// MeasureWord reports a unit of measure, which titles write short ("5 m"
// for «5 метров», "2 kg" for "2 kilos").
func MeasureWord(w string) bool {
	for _, p := range []string{"метр", "сантиметр", "миллиметр", "литр", "килограмм", "кило", "грамм", "дюйм", "ватт", "вольт",
		"meter", "metre", "centimet", "millimet", "liter", "litre", "kilo", "gram", "inch", "feet", "foot", "watt", "volt", "pound", "ounce"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}
