package intent

import "testing"

// TestAftersaleIntents: the after-sale requests as shoppers write them,
// and the policy questions that are not requests.
func TestAftersaleIntents(t *testing.T) {
	for _, c := range []struct {
		text       string
		kind       Kind
		value, qry string
		qty        int
	}{
		{"change the delivery address of my order to 5 Elm Road, Boston MA", IntentChangeAddress, "5 Elm Road, Boston MA", "", 0},
		{"поменяйте адрес доставки заказа на Новосибирск, ул. Ленина 10", IntentChangeAddress, "Новосибирск, ул. Ленина 10", "", 0},
		{"wrong address on my order", IntentChangeAddress, "", "", 0},
		{"I want to return my order because it is too short", IntentReturn, "return", "it is too short", 0},
		{"хочу обменять заказ, не подошёл размер", IntentReturn, "exchange", "не подошёл размер", 0},
		{"where is my return?", IntentReturn, "", "", 0},
		{"remove the coffee from my order", IntentChangeItems, "", "coffee", 0},
		{"make it 3 kettles in my order", IntentChangeItems, "", "kettles", 3},
	} {
		in := Parse(c.text, "", nil)
		if in.Kind != c.kind || in.Value != c.value || c.qry != "" && in.Query != c.qry || in.Qty != c.qty {
			t.Errorf("%q = %+v", c.text, in)
		}
	}
	for _, q := range []string{"if it doesn't fit can I send it back?", "можно ли вернуть товар, если не подошёл?", "what is your return policy?"} {
		if in := Parse(q, "", nil); in.Kind == IntentReturn {
			t.Errorf("%q is a policy question, parsed as %+v", q, in)
		}
	}
}
