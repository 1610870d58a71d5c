package analysis

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"strings"
)

//go:embed synonyms.txt
var defaultSynonyms string

// lexicon is the retail lexicon: everyday English synonyms and
// English–Russian equivalents across the categories shops sell.
//
//go:embed lexicon.txt
var lexicon string

// DefaultSynonyms returns the groups tuned on the demo shop (synonyms.txt
// in this package).
func DefaultSynonyms() [][]string { return mustParse("synonyms.txt", defaultSynonyms) }

// Lexicon returns the retail lexicon (lexicon.txt in this package).
func Lexicon() [][]string { return mustParse("lexicon.txt", lexicon) }

// SearchSynonyms returns the groups search expands queries with, the
// embedded index's default (which Weaviate shares through Expand):
// DefaultSynonyms, then the Lexicon, then the shop's own groups
// (catalog.SynonymGroup, added in the panel). The offline planner can
// compile the same with NewSynonyms(SearchSynonyms(shop...)), or take an
// index's live set (embedded.Index.Synonyms).
func SearchSynonyms(shop ...[]string) [][]string {
	out := append(DefaultSynonyms(), Lexicon()...)
	return append(out, shop...)
}

func mustParse(name, text string) [][]string {
	groups, err := ParseSynonyms(strings.NewReader(text))
	if err != nil {
		panic("analysis: built-in " + name + ": " + err.Error()) // a build defect, caught by the tests
	}
	return groups
}

// ParseSynonyms reads synonym groups: one group per line, terms separated
// by commas, "#" starting a comment. A term may be several words
// ("running shoes"); it then matches documents containing all of them.
func ParseSynonyms(r io.Reader) ([][]string, error) {
	var groups [][]string
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if strings.TrimSpace(line) == "" {
			continue
		}
		var g []string
		for _, t := range strings.Split(line, ",") {
			if t = strings.TrimSpace(t); t != "" {
				g = append(g, t)
			}
		}
		if len(g) < 2 {
			return nil, fmt.Errorf("synonyms line %d: a group needs at least two terms", n)
		}
		groups = append(groups, g)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("synonyms: %w", err)
	}
	return groups, nil
}

// Synonyms is the compiled form of synonym groups: every term as the
// stems it is looked up under. It is read-only once made.
type Synonyms struct {
	groups  [][][]string        // group → member → stems
	single  map[string][]int    // stem of a one-word member → its groups
	phrases map[string][]phrase // first stem of a multi-word member → members
}

// phrase is a multi-word member of a group.
type phrase struct {
	stems         []string
	group, member int
}

// NewSynonyms compiles groups of terms; a group left with fewer than two
// terms that have words is dropped.
func NewSynonyms(groups [][]string) *Synonyms {
	s := &Synonyms{single: map[string][]int{}, phrases: map[string][]phrase{}}
	for _, g := range groups {
		var members [][]string
		for _, term := range g {
			if stems := memberStems(term); len(stems) > 0 {
				members = append(members, stems)
			}
		}
		if len(members) < 2 {
			continue
		}
		s.add(members)
	}
	return s
}

func (s *Synonyms) add(members [][]string) {
	gi := len(s.groups)
	s.groups = append(s.groups, members)
	for mi, stems := range members {
		if len(stems) == 1 {
			s.single[stems[0]] = append(s.single[stems[0]], gi)
		} else {
			s.phrases[stems[0]] = append(s.phrases[stems[0]], phrase{stems: stems, group: gi, member: mi})
		}
	}
}

// memberStems tokenizes a synonym term the way queries are.
func memberStems(term string) []string {
	var stems []string
	for _, w := range QueryWords(term) {
		stems = append(stems, strings.Clone(w.Key))
	}
	return stems
}

// Len is the number of groups; they are numbered from 0.
func (s *Synonyms) Len() int { return len(s.groups) }

// Members returns the members of group g, each as its stems (several for
// a multi-word member). The caller must not change them.
func (s *Synonyms) Members(g int) [][]string { return s.groups[g] }

// GroupsOf returns the groups that have the one-word member stem.
func (s *Synonyms) GroupsOf(stem string) []int { return s.single[stem] }

// PhraseAt finds the longest multi-word member spelled at the head of ws
// and returns its group, its index in the group and its length in words;
// with none, group and member are -1 and n is 1.
func (s *Synonyms) PhraseAt(ws []QueryWord) (group, member, n int) {
	group, member, n = -1, -1, 1
	for _, p := range s.phrases[ws[0].Key] {
		if len(p.stems) <= n || len(p.stems) > len(ws) {
			continue
		}
		if matchesAt(ws, p.stems) {
			group, member, n = p.group, p.member, len(p.stems)
		}
	}
	return group, member, n
}

func matchesAt(ws []QueryWord, stems []string) bool {
	for i, s := range stems {
		if ws[i].Key != s {
			return false
		}
	}
	return true
}
