package analysis

import (
	"strings"
	"testing"
)

func TestSynonymsFile(t *testing.T) {
	if n := len(DefaultSynonyms()); n < 30 {
		t.Errorf("%d built-in synonym groups, want at least 30", n)
	}
	groups, err := ParseSynonyms(strings.NewReader("# comment\nsofa, couch # inline\n\n a ,b,\n"))
	if err != nil || len(groups) != 2 || groups[0][1] != "couch" || groups[1][1] != "b" {
		t.Errorf("parse: %q, %v", groups, err)
	}
	if _, err := ParseSynonyms(strings.NewReader("sofa, couch\nlonely\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a one-term group: %v", err)
	}
}

// TestSynonymsRussianEnglish: the Russian words shoppers use reach the
// English titles of the catalog and back, through one group.
func TestSynonymsRussianEnglish(t *testing.T) {
	syn := NewSynonyms(DefaultSynonyms())
	groupsOf := func(term string) map[int]bool {
		ws := QueryWords(term)
		out := map[int]bool{}
		if g, _, n := syn.PhraseAt(ws); g >= 0 && n == len(ws) {
			out[g] = true
		}
		if len(ws) == 1 {
			for _, g := range syn.GroupsOf(ws[0].Key) {
				out[g] = true
			}
		}
		return out
	}
	for _, pair := range [][2]string{
		{"running shoes", "беговые кроссовки"}, {"running shoes", "кроссовки"}, {"running", "беговой"},
		{"chef's knife", "поварской нож"}, {"mug", "кружки"}, {"tent", "палатки"}, {"yoga mat", "коврик для йоги"},
		{"headphones", "наушники"}, {"headphones", "earbuds"}, {"laptop", "ноутбук"}, {"sunscreen", "солнцезащитный крем"},
	} {
		shared := false
		for g := range groupsOf(pair[0]) {
			shared = shared || groupsOf(pair[1])[g]
		}
		if !shared {
			t.Errorf("%q and %q share no synonym group", pair[0], pair[1])
		}
	}
	for g := range groupsOf("mug") {
		for _, m := range syn.Members(g) {
			if len(m) == 1 && m[0] == Stem("cup") {
				t.Errorf(`"mug" is a synonym of "cup", which finds "10-Cup" coffee makers`)
			}
		}
	}
}
