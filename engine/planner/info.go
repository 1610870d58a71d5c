package planner

import (
	"context"
	"fmt"
	"shopbot/engine/toolkit"
	"strings"

	"shopbot/engine/planner/intent"
	"shopbot/engine/planner/quote"
	"shopbot/engine/tools"
)

// The shop-information skill: questions about the shop itself (returns,
// shipping and where it ships, payment, warranty, contact, about) are
// answered from the shop's pages through search_shop_info, quoting the
// best passage with its page title, and never with products. When no
// page answers, the planner says it does not know and offers a person.
// The words that make a message one are in intent/info.go; the dispatch
// has one handler entry for it.

// info answers from the shop's pages: the best passage, quoted with its
// page title (and heading), or an honest "I don't know".
func (t *plannerTurn) info(ctx context.Context, in intent.Intent) error {
	res, err := t.call(ctx, "search_shop_info", map[string]string{"query": in.Query})
	if err != nil && !toolkit.IsUserError(err) {
		return t.fail(err)
	}
	shop := dataAs[tools.ShopInfo](res)
	if err != nil || len(shop.Passages) == 0 {
		t.sayText(infoText.get(t.lang).unknown)
		return nil
	}
	// The answering sentences (issue 30): of the passages in the
	// shopper's language (a bilingual page has both), the sentences that
	// share most words with the question, not whole sections.
	passages := quote.InLanguage(shop.Passages, t.lang == "ru")
	best, quoted := quote.Answering(passages, in.About, in.Query)
	where := "«" + best.Page + "»"
	if best.Heading != "" && best.Heading != best.Page {
		where += " — " + best.Heading
	}
	t.sayText(fmt.Sprintf(infoText.get(t.lang).quote, where, strings.Join(quoted, " ")))
	return nil
}

// infoText is the skill's wording per language (English is the default).
var infoText = langTable[struct{ quote, unknown string }]{
	"en": {
		quote:   "From our page %s:\n\n%s",
		unknown: "I don't know that: none of our shop pages covers it. Would you like to talk to a person? Just say \"talk to a person\".",
	},
	"ru": {
		quote:   "Из раздела %s:\n\n%s",
		unknown: "Этого я не знаю: в информации магазина об этом ничего нет. Позвать сотрудника? Напишите «позови человека».",
	},
}

// langTable falls back to English for a language it lacks.
type langTable[T any] map[string]T

func (l langTable[T]) get(lang string) T {
	if v, ok := l[lang]; ok {
		return v
	}
	return l["en"]
}

// sayText appends text as its own paragraph of the reply.
func (t *plannerTurn) sayText(text string) {
	if t.plan.Text != "" {
		t.plan.Text += "\n\n"
	}
	t.plan.Text += text
}
