package intent

import (
	"reflect"
	"testing"

	"shopbot/catalog"
)

// testVocab is what a shop's variants might be sold in; the Russian
// shop below names its options in Russian.
var testVocab = catalog.OptionVocab{
	Names: []string{"colour", "size"},
	Values: map[string][]string{
		"colour": {"Navy", "Red", "Light Blue"},
		"size":   {"S", "M", "L", "XL", "40", "42"},
	},
}

func TestCutOptions(t *testing.T) {
	ru := catalog.OptionVocab{Names: []string{"размер"}, Values: map[string][]string{"размер": {"42", "M"}}}
	for _, tc := range []struct {
		text  string
		vocab catalog.OptionVocab
		bare  bool
		opts  map[string]string
		rest  string
	}{
		{"add the navy tee in M", testVocab, true, map[string]string{"colour": "Navy", "size": "M"}, "add the tee"},
		{"add trail runner size 42", testVocab, true, map[string]string{"size": "42"}, "add trail runner"},
		{"добавь кроссовки 42 размера", testVocab, true, map[string]string{"size": "42"}, "добавь кроссовки"},
		{"добавь кроссовки 42 размера", ru, true, map[string]string{"размер": "42"}, "добавь кроссовки"},
		{"I'll take it in navy", testVocab, true, map[string]string{"colour": "Navy"}, "i'll take it"},
		{"show running shoes in size 42", testVocab, false, map[string]string{"size": "42"}, "show running shoes"},
		{"футболки размер M", testVocab, false, map[string]string{"size": "M"}, "футболки"},
		{"футболки в размере XL", testVocab, false, map[string]string{"size": "XL"}, "футболки"},
		{"tees in light blue, size L", testVocab, false, map[string]string{"colour": "Light Blue", "size": "L"}, "tees"},
		{"navy colour tee", testVocab, false, map[string]string{"colour": "Navy"}, "tee"},
		// A bare value only in an add, never a number (a quantity) nor one letter.
		{"show red shoes", testVocab, false, nil, "show red shoes"},
		{"add 2 red shoes", testVocab, true, map[string]string{"colour": "Red"}, "add 2 shoes"},
		{"add 42 socks", testVocab, true, nil, "add 42 socks"},
		{"add a tee", testVocab, true, nil, "add a tee"},
		// Words of no option, a name without a value, an empty vocabulary.
		{"size 44 shoes", testVocab, false, nil, "size 44 shoes"},
		{"what size is it", testVocab, false, nil, "what size is it"},
		{"tee in navy", catalog.OptionVocab{}, true, nil, "tee in navy"},
	} {
		opts, rest := CutOptions(tc.text, tc.vocab, tc.bare)
		if !reflect.DeepEqual(opts, tc.opts) || rest != tc.rest {
			t.Errorf("CutOptions(%q, bare %v) = %v, %q; want %v, %q", tc.text, tc.bare, opts, rest, tc.opts, tc.rest)
		}
	}
}

// TestCutOptionsAmbiguousValue: a bare value two options share names
// neither.
func TestCutOptionsAmbiguousValue(t *testing.T) {
	v := catalog.OptionVocab{Names: []string{"colour", "trim"}, Values: map[string][]string{"colour": {"Navy"}, "trim": {"Navy", "Gold"}}}
	if opts, _ := CutOptions("add the navy cap", v, true); opts != nil {
		t.Errorf("ambiguous navy read as %v", opts)
	}
	if opts, _ := CutOptions("add the cap with trim navy", v, true); !reflect.DeepEqual(opts, map[string]string{"trim": "Navy"}) {
		t.Errorf("named trim read as %v", opts)
	}
}

func TestCouldNameOption(t *testing.T) {
	for text, want := range map[string]bool{"running shoes": false, "shoes in size 42": true, "футболки размер M": true, "shoes 42 размера": true, "red tee": false} {
		if got := CouldNameOption(IntentSearch, text); got != want {
			t.Errorf("search %q: %v, want %v", text, got, want)
		}
	}
	if !CouldNameOption(IntentAddByName, "add navy tee") || CouldNameOption(IntentCart, "cart in size 42") {
		t.Error("kinds")
	}
}
