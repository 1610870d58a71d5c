package intent

import (
	"strings"
	"unicode"

	"shopbot/catalog"
	"shopbot/catalog/search/analysis"
)

// Option words: "the tee in navy", "trail runner size 42", «кроссовки 42
// размера», «футболки размер M». Names and values come from the catalog
// (catalog.OptionVocab: what active variants are sold in), never from a
// fixed list of sizes; only the words that name an option are fixed
// here, in English and Russian. CutOptions finds them and returns the
// message without them, which the planner parses again (so "size 42" is
// not read as 42 units).

// optionNameWords name an option in shoppers' words; a Russian word
// matches by its stem (размер, размера, размере).
var optionNameWords = [][]string{
	{"size", "sizes", "размер"},
	{"colour", "colours", "color", "colors", "цвет"},
}

// optionJoiners stand between a product and its option: "in navy",
// «в размере M», "size of 42".
var optionJoiners = map[string]bool{"in": true, "в": true, "of": true, "во": true}

// CouldNameOption is a cheap test, before the vocabulary is read, of
// whether a message of kind k may name an option: an add may name a bare
// value ("add the navy tee"); a search needs a word that names an option
// or joins one ("in").
func CouldNameOption(k Kind, text string) bool {
	switch k {
	case IntentAdd, IntentAddByName:
		return true
	case IntentSearch:
	default:
		return false
	}
	for _, tok := range analysis.Tokenize(text) {
		if optionJoiners[tok] || nameGroup(tok) >= 0 {
			return true
		}
	}
	return false
}

// nameGroup is the index in optionNameWords of a word naming an option,
// or -1.
func nameGroup(tok string) int {
	for i, g := range optionNameWords {
		for _, w := range g {
			if tok == w || (!isASCII(w) && strings.HasPrefix(tok, w) && len([]rune(tok)) <= len([]rune(w))+3) {
				return i
			}
		}
	}
	return -1
}

func isASCII(s string) bool {
	for _, r := range s {
		if r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

// optionWords is a vocabulary in token form.
type optionWords struct {
	names  []string     // catalog names
	values [][][]string // per name, each value's tokens
	labels [][]string   // per name, each value as the catalog spells it
}

func newOptionWords(v catalog.OptionVocab) *optionWords {
	w := &optionWords{}
	for _, n := range v.Names {
		var toks [][]string
		var labels []string
		for _, val := range v.Values[n] {
			if t := analysis.Tokenize(val); len(t) > 0 {
				toks = append(toks, t)
				labels = append(labels, val)
			}
		}
		w.names = append(w.names, n)
		w.values = append(w.values, toks)
		w.labels = append(w.labels, labels)
	}
	return w
}

// nameAt is the catalog option a word names: the name itself, or a word
// of the same group in optionNameWords; -1 when none.
func (w *optionWords) nameAt(tok string) int {
	for i, n := range w.names {
		if strings.EqualFold(n, tok) {
			return i
		}
	}
	g := nameGroup(tok)
	if g < 0 {
		return -1
	}
	for i, n := range w.names {
		if nameGroup(strings.ToLower(n)) == g {
			return i
		}
	}
	return -1
}

// valueAt finds the longest value of option i (every option when i < 0)
// starting at toks[at]: the option, the value's label and its length in
// tokens. ambiguous is set when the words are a value of two options.
func (w *optionWords) valueAt(toks []string, at, i int) (name int, label string, n int, ambiguous bool) {
	name = -1
	for oi := range w.names {
		if i >= 0 && oi != i {
			continue
		}
		for vi, vt := range w.values[oi] {
			if at+len(vt) > len(toks) || !equalToks(toks[at:at+len(vt)], vt) {
				continue
			}
			switch {
			case len(vt) > n:
				name, label, n, ambiguous = oi, w.labels[oi][vi], len(vt), false
			case len(vt) == n && oi != name && !w.sameGroup(oi, name):
				ambiguous = true
			}
		}
	}
	return name, label, n, ambiguous
}

// sameGroup tells whether options i and j are one option spelt two ways
// by different products ("color" and "colour", catalog.OptionName): a
// value of both is no ambiguity, and add_to_cart finds the option holding
// it on the product.
func (w *optionWords) sameGroup(i, j int) bool {
	return catalog.OptionName(w.names[i]) == catalog.OptionName(w.names[j])
}

func equalToks(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// CutOptions reads the option phrases of a message against the
// vocabulary: a name and a value in either order ("size 42", «42
// размера»), "in" and a value ("in navy"), and, when bare is set (an
// add, where the product is checked against its variants), a value alone
// that is no number and one letter at least two long ("navy tee", "XL").
// It returns the options by catalog name and the message without those
// words; nil options when there are none.
func CutOptions(text string, v catalog.OptionVocab, bare bool) (map[string]string, string) {
	if len(v.Names) == 0 {
		return nil, text
	}
	w := newOptionWords(v)
	toks := analysis.Tokenize(text)
	cut := make([]bool, len(toks))
	var opts map[string]string
	set := func(name int, label string, from, to int) {
		if opts == nil {
			opts = map[string]string{}
		}
		if _, dup := opts[w.names[name]]; dup {
			return // the first mention wins
		}
		opts[w.names[name]] = label
		if from > 0 && optionJoiners[toks[from-1]] {
			from--
		}
		for k := from; k < to; k++ {
			cut[k] = true
		}
	}
	for at := 0; at < len(toks); at++ {
		if cut[at] {
			continue
		}
		if ni := w.nameAt(toks[at]); ni >= 0 {
			next := at + 1
			if next < len(toks) && optionJoiners[toks[next]] {
				next++
			}
			if name, label, n, _ := w.valueAt(toks, next, ni); n > 0 { // "size 42"
				set(name, label, at, next+n)
				at = next + n - 1
			}
			continue
		}
		name, label, n, ambiguous := w.valueAt(toks, at, -1)
		if n == 0 {
			continue
		}
		if after := at + n; after < len(toks) { // "42 размера": the name says which option
			if ni := w.nameAt(toks[after]); ni >= 0 {
				if name, label, n2, _ := w.valueAt(toks, at, ni); n2 > 0 {
					set(name, label, at, at+n2+1)
					at += n2
					continue
				}
			}
		}
		joined := at > 0 && optionJoiners[toks[at-1]]
		// A letter alone ("L please") is a size only in a message of
		// two words at most.
		alone := bare && (plainWord(toks[at:at+n]) || len(toks) <= 2 && len([]rune(toks[at])) == 1 && !unicode.IsDigit([]rune(toks[at])[0]))
		if ambiguous || !(joined || alone) {
			continue
		}
		set(name, label, at, at+n)
		at += n - 1
	}
	if opts == nil {
		return nil, text
	}
	var rest []string
	for k, t := range toks {
		if !cut[k] {
			rest = append(rest, t)
		}
	}
	return opts, strings.Join(rest, " ")
}

// plainWord reports words that may stand alone as an option value: no
// number (it would be a quantity) and not a single letter.
func plainWord(toks []string) bool {
	s := strings.Join(toks, " ")
	if len([]rune(s)) < 2 {
		return false
	}
	for _, r := range s {
		if unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
