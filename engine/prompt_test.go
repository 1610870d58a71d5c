package engine

import (
	"strings"
	"testing"
)

// The prompt cache returns what the template renders for the same data,
// a different prompt for different data, and stays bounded.
func TestPromptCache(t *testing.T) {
	c := &promptCache{m: map[promptData]string{}}
	d := promptData{ShopName: "Acme", Channel: "web", Today: "Monday, 2 January 2006", Currency: "USD", Language: "English"}
	first, err := c.render(d)
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.render(d)
	if err != nil || again != first {
		t.Fatalf("cached render differs: %v\n%q\n%q", err, first, again)
	}
	d2 := d
	d2.CartUnits, d2.CartTotal = 2, "$10.00"
	other, err := c.render(d2)
	if err != nil {
		t.Fatal(err)
	}
	if other == first || !strings.Contains(other, "$10.00") {
		t.Fatalf("different data gave the cached prompt:\n%s", other)
	}
	for i := range promptCacheSize + 10 {
		d3 := d
		d3.CartUnits = i + 1
		if _, err := c.render(d3); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(c.m); n > promptCacheSize {
		t.Fatalf("cache holds %d prompts, bound is %d", n, promptCacheSize)
	}
}
