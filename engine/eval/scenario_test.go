package eval_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"shopbot/engine/eval"
)

func TestParseExample(t *testing.T) {
	f, err := os.Open("testdata/example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	scs, err := eval.Parse(f, "example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(scs) != 10 {
		t.Fatalf("%d scenarios, want 10", len(scs))
	}
	s := scs[1]
	if s.Name != "add from a button and check out" || s.User != "Ann Lee" || s.Line != 13 || len(s.Turns) != 6 {
		t.Errorf("scenario 2 = %+v", s)
	}
	if p := s.Turns[1].Press; p == nil || p.Encode() != "add|SHO-RUN-001-42|2" || s.Turns[1].Input() != "press: add|SHO-RUN-001-42|2" {
		t.Errorf("turn 2 press = %+v", p)
	}
	last := s.Turns[5].Expect
	if last.OrderPlaced == nil || !*last.OrderPlaced || last.Cart == nil || len(last.Cart) != 0 {
		t.Errorf("turn 6 expect = %+v (want order_placed and an empty cart)", last)
	}
	if scs[0].Turns[0].Expect.MaxPrice.FloatString(2) != "150.00" || *scs[0].Turns[0].Expect.MaxModelCalls != 0 {
		t.Errorf("scenario 1 expect = %+v", scs[0].Turns[0].Expect)
	}
}

func TestParseRefusesMalformedFiles(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"empty file", "", "f.yaml:1: the file holds no scenarios (a list of scenarios with name and turns)"},
		{"not a list", "name: x\n", `f.yaml:1: the file must be a list of scenarios (each "- name: …" with turns)`},
		{"bad yaml", "- name: x\n  turns: [\n", "f.yaml:2: not valid YAML: did not find expected node content"},
		{"unknown key", "- name: x\n  turns:\n    - say: hi\n      expect: {shows: [A], colour: red}\n",
			`f.yaml:4: unknown key "colour" in expect of turn 1 of scenario "x" (allowed: shows, not_shows, first, max_price, min_price, cart, order_placed, reply_contains, reply_not_contains, tools, max_model_calls)`},
		{"say and press", "- name: x\n  turns:\n    - say: hi\n      press: cart\n",
			`f.yaml:3: turn 1 of scenario "x" has both say and press; a turn is one or the other`},
		{"empty turns", "- name: x\n  turns: []\n", `f.yaml:2: scenario "x" has no turns`},
		{"empty turn", "- name: x\n  turns:\n    - expect: {cart: {}}\n", `f.yaml:3: turn 1 of scenario "x" has neither say nor press`},
		{"wrong type", "- name: x\n  turns:\n    - say: hi\n      expect: {max_model_calls: two}\n",
			`f.yaml:4: max_model_calls must be a whole number of at least 0, not "two"`},
		{"bad price", "- name: x\n  turns:\n    - say: hi\n      expect:\n        max_price: -5\n",
			`f.yaml:5: max_price must be a price in the shop's currency like 150 or 89.99, not "-5"`},
		{"bad press", "- name: x\n  turns:\n    - press: fly|A\n",
			`f.yaml:3: press "fly|A" is not a button action (like add|SKU|1, rm|SKU, cart, co): unknown action "fly"`},
		{"bad cart", "- name: x\n  turns:\n    - say: hi\n      expect: {cart: {A: 0}}\n",
			`f.yaml:4: the quantity of A must be a whole number of at least 1, not "0"`},
		{"list as text", "- name: x\n  turns:\n    - say: hi\n      expect: {shows: A}\n",
			`f.yaml:4: shows must be a list, like shows: [a, b]`},
		{"order_placed text", "- name: x\n  turns:\n    - say: hi\n      expect: {order_placed: yes please}\n",
			`f.yaml:4: order_placed must be true or false, not "yes please"`},
		{"duplicate name", "- name: x\n  turns: [{say: hi}]\n- name: x\n  turns: [{say: ho}]\n",
			`f.yaml:3: scenario "x" is already defined at line 1`},
		{"no name", "- turns: [{say: hi}]\n", `f.yaml:1: the scenario has no name`},
		{"every problem at once", "- name: x\n  turns: [{say: hi, sing: la}]\n- name: y\n  turns: []\n",
			"f.yaml:2: unknown key \"sing\" in turn 1 of scenario \"x\" (allowed: say, press, expect)\nf.yaml:4: scenario \"y\" has no turns"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scs, err := eval.Parse(strings.NewReader(tc.src), "f.yaml")
			var ferr *eval.FileError
			if !errors.As(err, &ferr) {
				t.Fatalf("err = %v, want a FileError", err)
			}
			if err.Error() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", err, tc.want)
			}
			if scs != nil {
				t.Errorf("scenarios returned with a bad file: %d (a bad file never runs half)", len(scs))
			}
		})
	}
}
