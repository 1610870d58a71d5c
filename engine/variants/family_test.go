package variants

import (
	"reflect"
	"strings"
	"testing"

	"shopbot/catalog"
)

// tee is a parent in colours and sizes; its variants by id give colour
// values Navy, Red, Green and sizes M, L, in that order.
func tee() (*catalog.Product, []catalog.Product) {
	p := &catalog.Product{ID: 1, SKU: "TEE", Title: "Tee", OptionNames: []string{"colour", "size"}}
	var vs []catalog.Product
	for i, o := range [][2]string{{"Navy", "M"}, {"Navy", "L"}, {"Red", "M"}, {"Green", "M"}} {
		vs = append(vs, catalog.Product{ID: int64(10 + i), SKU: "TEE-" + o[0] + "-" + o[1], Options: map[string]string{"colour": o[0], "size": o[1]}})
	}
	return p, vs
}

func TestChoiceOptionsRejectsHostileArgs(t *testing.T) {
	p, vs := tee()
	for arg, want := range map[string]map[string]string{
		"":    {},
		"1":   {"colour": "Red"},
		"0.1": {"colour": "Navy", "size": "L"},
		".0":  {"size": "M"},
		"2":   {"colour": "Green"},
	} {
		got, ok := ChoiceOptions(p, vs, arg)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v %v, want %v", arg, got, ok, want)
		}
	}
	for _, arg := range []string{"3", "-1", "a", "0.0.0", "01", " 1", "0.2", "1e0", "+1", "0..", strings.Repeat("0.", 40), "99999999999999999999"} {
		if got, ok := ChoiceOptions(p, vs, arg); ok {
			t.Errorf("%q accepted: %v", arg, got)
		}
	}
}

func TestEncodeChoiceRoundTrips(t *testing.T) {
	p, vs := tee()
	f := New(p, vs)
	for _, choice := range [][]int{{-1, -1}, {1, -1}, {-1, 0}, {0, 1}} {
		got, ok := f.DecodeChoice(EncodeChoice(choice))
		if !ok || !reflect.DeepEqual(got, choice) {
			t.Errorf("%v: decoded %v %v", choice, got, ok)
		}
	}
}

func TestOptionNameIn(t *testing.T) {
	for _, tc := range []struct{ name, lang, want string }{
		{"Colour", "en", "Colour"},
		{"Colour", "ru", "цвет"},
		{"sizes", "ru-RU", "размер"},
		{"Fit", "ru", "Fit"},
	} {
		if got := OptionNameIn(tc.name, tc.lang); got != tc.want {
			t.Errorf("OptionNameIn(%q, %q) = %q, want %q", tc.name, tc.lang, got, tc.want)
		}
	}
}
