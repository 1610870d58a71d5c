package intent

// Checkout that cannot be derailed (issue 30): order intent said in any
// phrasing ("ok i wanna place an order", "can I buy this now", «хочу
// оформить заказ») starts the checkout instead of a search, and while the
// checkout waits for a detail, a confirmation or a delivery choice is
// never stored as that detail: the checkout step is asked again, saying
// what it needs.

var (
	// vOrderWords are the words of ordering itself.
	vOrderWords = ph("order|buy|purchase|checkout|check out|place|complete|proceed|заказ|заказать|закажу|" +
		"оформ*|купить|куплю")
	// vOrderAround are the words that come with them.
	vOrderAround = ph("i|can|could|may|this|these|it|them|now|then|ok|okay|so|want|to|wanna|gonna|would|like|" +
		"i'd|id|let's|lets|how|do|we|an|a|the|please|pls|ready|go|ahead|just|all|everything|that's|thats|that|is|" +
		"right|away|already|me|everything|i'm|im|to|with|and|done|finished|" +
		"я|хочу|бы|как|мне|можно|уже|теперь|тогда|давай|давайте|сейчас|готов|готова|все|всё|это|на|и|так|ок|ну|а")
	// vDeliveryChoiceWords are delivery choices, never a contact detail.
	vDeliveryChoiceWords = ph("standard|express|courier|pickup|pick up|store pickup|shipping|delivery|the first|the second|" +
		"стандарт*|экспресс|курьер*|самовывоз|доставка|доставкой")
)

// matchOrderNow: a message made of ordering words only.
func matchOrderNow(m *parseMsg) (Intent, bool) {
	rest := cutAll(cutAll(m.toks, vOrderAround), vChatter)
	if len(rest) == 0 || !allIn(rest, vOrderWords) || hasPhrase(m.toks, ph("my order|мой заказ|моего заказа|status|статус|where|где")) {
		return Intent{}, false
	}
	return Intent{Kind: IntentCheckout}, true
}

// notADetail reports a message that answers another question than the
// detail checkout waits for: a yes, a no, a delivery choice.
func notADetail(m *parseMsg) bool {
	rest := cutAll(m.toks, vPolite)
	return len(rest) > 0 && (allIn(rest, vYes) || allIn(rest, vNo) || allIn(cutAll(rest, vYes), vDeliveryChoiceWords))
}
