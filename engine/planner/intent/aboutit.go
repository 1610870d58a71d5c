package intent

// A yes/no question about the product in focus: "is it waterproof?",
// "does it have bluetooth", «он водонепроницаемый?». The words asked
// about go to Query; the planner answers from the product's own text
// instead of searching for the words.

var (
	vAskIt = ph("is it|is this|is that|is this one|is that one|does it|does this|does this one|does that|can it|will it|" +
		"are they|are these|are those|do they|do these|can they|" +
		"он|она|оно|они|это|а он|а она|а оно|а они|а это|он же|она же")
	// vNotAboutIt are questions other paths answer: stock, price, delivery,
	// reviews, details, options ("does it come in green" narrows a list).
	vNotAboutIt = ph("stock|available|availability|cost|costs|price|much|deliver|delivery|ship|shipping|return|" +
		"good|any good|worth|reviews|review|rated|come|comes|in|size|sizes|colour|color|colours|colors|" +
		"наличи*|стоит|стоимость|цена|доставк*|вернуть|возврат*|отзыв*|хорош*|размер*|цвет*|бывает|есть|" +
		"similar|like|cheaper|дешевле|подешевле|похож*")
	vAskFiller = ph("have|has|got|support|supports|include|includes|work|works|with|really|actually|also|too|properly|truly|fully|a|an|the|правда|действительно|тоже|вообще|ли|же|а|it|this|that|they")
)

// maxAboutWords bounds the words a yes/no question may ask about; a longer
// message is a search or a sentence for another path.
const maxAboutWords = 3

func matchAboutIt(m *parseMsg) (Intent, bool) {
	if m.st.Focus == "" || !startsWithPhrase(m.toks, vAskIt) || hasPhrase(m.toks, vNotAboutIt) {
		return Intent{}, false
	}
	words := cutAll(m.toks[matchLen(m.toks, 0, vAskIt):], vAskFiller)
	if len(words) == 0 || len(words) > maxAboutWords {
		return Intent{}, false
	}
	return Intent{Kind: IntentAboutIt, Query: queryOf(words), Refs: []Ref{{Focus: true}}}, true
}
