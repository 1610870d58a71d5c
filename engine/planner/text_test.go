package planner

import "testing"

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "товаров", 1: "товар", 2: "товара", 5: "товаров", 11: "товаров", 21: "товар", 24: "товара", 112: "товаров"} {
		if got := plural(n, "товар", "товара", "товаров"); got != want {
			t.Errorf("plural(%d) = %q, want %q", n, got, want)
		}
	}
	if plural(1, "item", "items") != "item" || plural(3, "item", "items") != "items" {
		t.Error("English plural")
	}
}
