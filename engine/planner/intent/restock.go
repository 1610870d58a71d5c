package intent

// Back-in-stock requests: "let me know when the desk lamp is back",
// "notify me when it's in stock", "сообщите, когда появится".

// IntentNotifyBack asks for a message when a product is back in stock:
// Refs[0], or Query (a product name).
const IntentNotifyBack Kind = "notify_back"

var (
	vNotifyAsk = ph("let me know|notify me|tell me|message me|ping me|alert me|text me|email me|" +
		"сообщите|сообщи|сообщить|напишите|напиши|уведомите|уведоми|дайте знать|дай знать")
	vNotifyWhen = ph("when|once|as soon as|if|когда|как только|если")
	vNotifyBack = ph("back|in stock|available|restocked|restock|comes back|появится|появятся|поступит|поступят|" +
		"будет в наличии|будут в наличии|снова|завезут|привезут")
	vNotifyNoise = ph("let|me|know|notify|tell|message|ping|alert|text|email|when|once|as|soon|if|is|are|it|its|it's|s|" +
		"back|in|stock|available|again|restocked|restock|comes|come|the|this|that|please|pls|" +
		"сообщите|сообщи|сообщить|напишите|напиши|уведомите|уведоми|дайте|дай|знать|когда|как|только|если|" +
		"появится|появятся|поступит|поступят|будет|будут|в|наличии|снова|завезут|привезут|он|она|оно|они|этот|эта|это|товар|пожалуйста|мне")
)

// matchBackInStock needs all three parts (ask, when, back), so "tell me
// about the lamp" or "is it in stock?" stay what they were.
func matchBackInStock(m *parseMsg) (Intent, bool) {
	if !hasPhrase(m.toks, vNotifyAsk) || !hasPhrase(m.toks, vNotifyWhen) || !hasPhrase(m.toks, vNotifyBack) {
		return Intent{}, false
	}
	refs, rest := extractRefs(m.toks, false)
	if len(refs) > 0 {
		return Intent{Kind: IntentNotifyBack, Refs: refs[:1]}, true
	}
	if q := queryOf(cutAll(rest, vNotifyNoise)); q != "" {
		return Intent{Kind: IntentNotifyBack, Query: q}, true
	}
	return Intent{Kind: IntentNotifyBack, Refs: []Ref{{Focus: true}}}, true
}
