package intent

import (
	"shopbot/catalog/search/analysis"
	"strings"
)

// Review questions: "do people complain about the battery of the Auralis
// Q7?", "what do reviewers say about the second one?", "are the trail
// runners true to size?", "отзывы о третьем". A review question names a
// product (Query) or points at a shown one (Refs, resolved as every other
// reference is), and may ask about one thing (About: the words a review
// would use for it, both languages). The planner's reviews.go answers
// it from search_reviews and get_reviews_summary.

var (
	// vReviewAsk are the words that make a message a question about what
	// shoppers wrote: a review word, or a question only reviews answer
	// (fit, complaints).
	vReviewAsk = ph("review|reviews|reviewer|reviewers|feedback|opinion|opinions|testimonials|" +
		"what do people say|what people say|what do people think|what do customers say|what do buyers say|" +
		"what do shoppers say|people say|customers say|buyers say|do people like|do customers like|" +
		"complain*|complaint*|any good|is it good|are they good|worth it|worth the money|how good|" +
		"хорош* ли|стоит ли брать|стоит брать|true to size|run small|runs small|run large|runs large|run big|runs big|" +
		"отзыв*|мнени*|жалу*|жалоб*|маломер*|большемер*|размер в размер|что говорят|что пишут|что думают")
	// vReviewFiller are the question's words around the product and the
	// thing asked about.
	vReviewFiller = ph("what|whats|what's|do|does|did|people|say|says|said|think|shoppers|customers|buyers|users|" +
		"reviewers|about|of|for|on|regarding|mention|mentions|anyone|anybody|there|any|is|are|was|were|it's|its|" +
		"have|has|had|much|many|lot|lots|often|usually|really|actually|how|the|a|an|with|in|tell|me|show|read|" +
		"according to|according|any good|good|bad|enough|getting|get|issues|issue|problems|problem|that|if|when|" +
		"anything|something|everything|people|customers|like|likes|overall|general|generally|so far|" +
		"говорят|пишут|думают|люди|покупатели|покупателей|пользователи|что|есть|ли|на|по|у|о|об|про|какие|какой|" +
		"как|часто|много|расскажи|покажи|почитать|прочитать|а|и|в|с|под|проблем*|ли")
	// vReviewOf ask for a named product's reviews without a question;
	// vReviewSearch ask for products by their reviews.
	vReviewOf     = ph("reviews of|reviews for|reviews on|review of|review for|complain*|complaint*|отзыв* о|отзыв* об|отзыв* про|отзыв* на|жалоб*|жалу*")
	vReviewSearch = ph("with good reviews|with great reviews|with reviews|star reviews|star customer reviews|best reviews|good reviews|top reviews|highly reviewed|" +
		"с хорошими отзывами|с отзывами|хорошие отзывы")
	// vReviewThey point at the product in focus as "it" does: "do they
	// run small?", "она промокает?".
	vReviewThey = ph("they|them|their|those|these|она|он|они|их|ее|её")
)

// reviewAspect is one thing shoppers write about: the words that ask for
// it and the words a review uses for it (the search query, and what a
// quoted review must mention).
type reviewAspect struct {
	asks     phrases
	mentions string
}

// reviewAspects are the usual review topics, English and Russian side by
// side. A word that is none of them but comes with a reference ("the
// strap of the second one") is asked about as it is.
var reviewAspects = []reviewAspect{
	{ph("battery|batteries|battery life|charge|charging|charger|батаре*|аккумулятор*|заряд*"),
		"battery charge charging батарея батарейка аккумулятор заряд"},
	{ph("true to size|run small|runs small|run large|runs large|run big|runs big|size|sizes|sizing|fit|fits|fitting|" +
		"размер*|маломер*|большемер*|сидит|сидят"),
		"size sizing fit small large narrow wide размер маломерит большемерит"},
	{ph("noise cancelling|noise canceling|noise-cancelling|anc|noise|noisy|loud|quiet|шумоподав*|шум*|громк*|тих*"),
		"noise cancelling anc noisy loud quiet шум шумоподавление громкий тихий"},
	{ph("comfort|comfortable|comfy|uncomfortable|удоб*|комфорт*|неудоб*"), "comfortable comfort comfy удобный удобно комфорт"},
	{ph("durability|durable|hold up|holds up|lasts|break|breaks|broke|broken|wear|wears|tear|tore|fall apart|falls apart|" +
		"прочн*|слома*|лома*|порва*|износ*|развалил*"),
		"durable broke broken tore wear wears lasts months fell apart прочный сломался порвался износ"},
	{ph("smell|smells|scent|odor|odour|fragrance|запах*|пахн*|аромат*"), "smell smells scent odor fragrance запах пахнет аромат"},
	{ph("delivery|shipping|arrived|arrive|packaging|package|damaged|damage|dented|cracked|доставк*|упаков*|повреж*|пришл*|пришел"),
		"arrived damaged packaging box delivery cracked dented доставка упаковка пришла повреждена"},
	{ph("sound|audio|bass|звук*|бас*"), "sound audio bass звук"},
	{ph("taste|tastes|flavor|flavour|вкус*"), "taste tastes flavor flavour вкус"},
	{ph("quality|build|качеств*|сборк*"), "quality build качество сборка"},
	{ph("value|worth it|worth the money|worth|money|overpriced|цен*|стоит ли|деньги"), "value money price worth цена деньги"},
	{ph("grip|traction|slippery|сцеплен*|скольз*"), "grip traction slippery сцепление скользкий"},
	{ph("cushioning|cushion|cushioned|амортиз*"), "cushioning soft cushion амортизация мягкий"},
	{ph("weight|heavy|heavier|lightweight|вес|тяжел*"), "weight heavy light вес тяжелый легкий"},
	{ph("waterproof|rain|wet|leak|leaks|водонепроница*|промока*|дожд*|протека*"), "waterproof rain wet dry water промокает дождь сухо"},
	{ph("warm|warmth|тепл*"), "warm warmth hot тепло жарко"},
	{ph("assembly|assemble|instructions|сборк*|собрать|инструкци*"), "assembly assemble instructions сборка собрать"},
	{ph("easy to use|ease of use|setup|set up|настройк*"), "easy setup app настройка приложение"},
}

// matchReviews recognizes a question about what shoppers wrote.
func matchReviews(m *parseMsg) (Intent, bool) {
	if !hasPhrase(m.toks, vReviewAsk) || hasPhrase(m.toks, vCompare) || hasPhrase(m.toks, vAdd) ||
		hasPhrase(m.toks, vSetVerb) && hasPhrase(m.toks, vShopData) {
		return Intent{}, false
	}
	toks, about := cutAspects(m.toks)
	refs, rest := extractRefs(toks, false)
	if len(refs) == 0 && hasPhrase(rest, vReviewThey) {
		refs = []Ref{{Focus: true}}
	}
	rest = cutAll(rest, vReviewThey)
	words := cutAll(cutAll(cutAll(rest, vReviewAsk), vReviewFiller), vPolite)
	in := Intent{Kind: IntentReviews, About: strings.Join(about, " ")}
	if len(refs) == 0 && len(words) > 0 && len(m.st.ShownCards) > 0 {
		if p := pickShown(words, m.st, false); len(p.refs) > 0 {
			refs, words = p.refs, nil
		}
	}
	switch {
	case len(refs) > 0:
		in.Refs = refs[:1]
		// Words that name no product, with a reference, are what is asked
		// about ("the strap of the second one").
		in.About = strings.TrimSpace(in.About + " " + queryOf(words))
	case len(words) > 0 && (hasPhrase(m.toks, vReviewSearch) || !askedAbout(m)):
		// "headphones with 5 star reviews" is a search.
		return Intent{}, false
	case len(words) > 0:
		in.Query = queryOf(words)
	default:
		in.Refs = []Ref{{Focus: true}}
	}
	return in, true
}

// askedAbout reports whether a message naming a product asks about its
// reviews: a question, or "reviews of …".
func askedAbout(m *parseMsg) bool {
	return strings.Contains(m.raw, "?") || infoQuestion.at(m.toks, 0) > 0 || hasPhrase(m.toks, vReviewOf)
}

// cutAspects takes the review topics out of toks and returns the words a
// review would use for them (each topic once).
func cutAspects(toks []string) (rest, about []string) {
	rest = toks
	for _, a := range reviewAspects {
		if !hasPhrase(rest, a.asks) {
			continue
		}
		rest = cutAll(rest, a.asks)
		about = append(about, a.mentions)
	}
	return rest, about
}

// ReviewMentions reports whether a review's text speaks of about (the
// words of Intent.About): some word of the review begins with the stem of
// some word of about. The search ranks by meaning too, so a review it
// returns need not mention the thing at all; only one that does is quoted.
func ReviewMentions(text, about string) bool {
	words := analysis.Tokenize(text)
	for _, a := range analysis.Tokenize(about) {
		s := stemWord(a)
		if len([]rune(s)) < 3 {
			continue
		}
		for _, w := range words {
			if strings.HasPrefix(w, s) {
				return true
			}
		}
	}
	return false
}
