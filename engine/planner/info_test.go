package planner

import (
	"context"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/engine/planner/intent"
)

// TestPlannerAnswersShopQuestions: policy questions in English and
// Russian go to search_shop_info (delivery questions in a shop with no
// delivery methods set up, after get_delivery_options), and the answer quotes the best passage
// with its page title, listing no products.
func TestPlannerAnswersShopQuestions(t *testing.T) {
	c := newPlannerChat(t, "en-US")
	for _, tc := range []struct{ msg, page, quote string }{
		{"what is your return policy?", "Returns and refunds", "return"},
		{"do you ship to Canada?", "Shipping and delivery", "Canada"},
		{"How much is shipping?", "Shipping and delivery", "$5"},
		{"returns", "Returns and refunds", "return"},
		{"how long does delivery to Canada take?", "Shipping and delivery", "5–8 business days"},
		{"can I pay with PayPal?", "Payment", "PayPal"},
		{"what warranty do you give?", "Warranty", "2-year"},
		{"how can I contact you?", "Contact us", "support@shopbot.example"},
		{"как вернуть товар", "Returns and refunds", "Вернуть товар можно в течение 30 дней"},
		{"сколько стоит доставка", "Shipping and delivery", "Стоимость доставки"},
		{"доставляете в Канаду?", "Shipping and delivery", "Канаду"},
		{"есть ли гарантия?", "Warranty", "гарантия 2 года"},
	} {
		plan := c.say(t, tc.msg)
		// A delivery question asks get_delivery_options first; this shop
		// set up no methods, so its pages answer.
		calls := plan.Calls
		if len(calls) == 2 && calls[0].Name == "get_delivery_options" {
			calls = calls[1:]
		}
		if len(calls) != 1 || calls[0].Name != "search_shop_info" {
			t.Errorf("%q: calls %s, want search_shop_info only", tc.msg, planCallNames(plan))
			continue
		}
		if !strings.Contains(plan.Text, "«"+tc.page+"»") || !strings.Contains(plan.Text, tc.quote) {
			t.Errorf("%q: reply %q, want page %q quoting %q", tc.msg, plan.Text, tc.page, tc.quote)
		}
		for _, r := range plan.Results {
			if len(r.Cards) > 0 {
				t.Errorf("%q: listed %d products", tc.msg, len(r.Cards))
			}
		}
	}
}

// TestPlannerShopQuestionsLeaveSearchesAlone: product requests that share
// a word with a policy are still searches.
func TestPlannerShopQuestionsLeaveSearchesAlone(t *testing.T) {
	c := newPlannerChat(t, "en-US")
	for _, msg := range []string{"shipping boxes", "running shoes", "phone case", "наушники"} {
		in := intent.Parse(msg, "en-US", nil)
		if in.Kind == intent.IntentInfo {
			t.Errorf("%q parsed as a shop question", msg)
		}
	}
	if plan := c.say(t, "show me running shoes"); len(plan.Calls) == 0 || plan.Calls[0].Name != "search_products" {
		t.Errorf("calls %s", planCallNames(plan))
	}
}

// TestPlannerShopQuestionUnknown: with no page to answer, the planner
// says it does not know and offers a person.
func TestPlannerShopQuestionUnknown(t *testing.T) {
	c := newPlannerChat(t, "en-US")
	ctx := context.Background()
	pages, err := catalog.ListPages(ctx, c.e.db)
	if err != nil || len(pages) == 0 {
		t.Fatalf("demo pages: %d, %v", len(pages), err)
	}
	c.e.deps.Passages = nil // as with no pages searchable
	plan := c.say(t, "what is your return policy?")
	if !strings.Contains(plan.Text, "I don't know") || !strings.Contains(plan.Text, "talk to a person") || strings.Contains(plan.Text, "30 days") {
		t.Errorf("reply %q", plan.Text)
	}
	ru := c.say(t, "какие условия возврата?")
	if !strings.Contains(ru.Text, "не знаю") || !strings.Contains(ru.Text, "позови человека") {
		t.Errorf("reply %q", ru.Text)
	}
}
