package eval

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"shopbot/engine/view"
)

// Scenario is one conversation to run: a fresh shopper says or presses
// each turn in order, and each turn's outcome must meet its expectations.
type Scenario struct {
	Name   string
	Locale string
	User   string // the shopper's display name
	Turns  []Turn
	Line   int // where it starts in its file
}

// Turn is one shopper message (Say) or button press (Press).
type Turn struct {
	Say    string
	Press  *view.Action
	Expect Expect
	Line   int
}

// Input is the turn as the scenario wrote it: "say: …" or "press: …".
func (t Turn) Input() string {
	if t.Press != nil {
		return "press: " + t.Press.Encode()
	}
	return "say: " + t.Say
}

// Expect is what a turn's outcome must show; unset fields are not checked.
type Expect struct {
	Shows            []string
	NotShows         []string
	First            string
	MaxPrice         *big.Rat // major units
	MinPrice         *big.Rat
	Cart             map[string]int // nil: not checked; empty: the cart must be empty
	OrderPlaced      *bool
	ReplyContains    []string
	ReplyNotContains []string
	Tools            []string
	MaxModelCalls    *int
}

// FileError lists everything wrong with a scenario file, one problem a
// line as FILE:LINE: what is wrong.
type FileError struct {
	File     string
	Problems []Problem
}

// Problem is one thing wrong at a line of a scenario file.
type Problem struct {
	Line int
	Msg  string
}

func (e *FileError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s:%d: %s", e.File, p.Line, p.Msg)
	}
	return b.String()
}

// Parse reads a scenario file, named file in errors. A file with any
// problem returns a *FileError listing them all and no scenarios, so a
// malformed file never runs half.
func Parse(r io.Reader, file string) ([]Scenario, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	p := &parser{err: &FileError{File: file}}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(src))
	switch err := dec.Decode(&doc); {
	case errors.Is(err, io.EOF):
		p.add(1, "the file holds no scenarios (a list of scenarios with name and turns)")
	case err != nil:
		line, msg := yamlProblem(err)
		p.add(line, "%s", msg)
	default:
		if err := dec.Decode(new(yaml.Node)); !errors.Is(err, io.EOF) {
			p.add(1, "the file holds more than one YAML document; put every scenario in one list")
		}
	}
	var out []Scenario
	if len(p.err.Problems) == 0 {
		out = p.file(doc.Content[0])
	}
	if len(p.err.Problems) > 0 {
		return nil, p.err
	}
	return out, nil
}

// yamlLine finds the line in the YAML library's messages ("yaml: line 4:
// did not find expected key").
var yamlLine = regexp.MustCompile(`line (\d+): `)

func yamlProblem(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlLine.FindStringSubmatchIndex(msg); m != nil {
		n, _ := strconv.Atoi(msg[m[2]:m[3]])
		return n, "not valid YAML: " + msg[:m[0]] + msg[m[1]:]
	}
	return 1, "not valid YAML: " + msg
}

type parser struct{ err *FileError }

func (p *parser) add(line int, format string, args ...any) {
	p.err.Problems = append(p.err.Problems, Problem{Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) file(n *yaml.Node) []Scenario {
	if n.Kind != yaml.SequenceNode {
		p.add(n.Line, "the file must be a list of scenarios (each \"- name: …\" with turns)")
		return nil
	}
	if len(n.Content) == 0 {
		p.add(n.Line, "the list of scenarios is empty")
	}
	var out []Scenario
	names := map[string]int{}
	for _, sn := range n.Content {
		s, ok := p.scenario(sn)
		if !ok {
			continue
		}
		if prev, dup := names[s.Name]; dup {
			p.add(s.Line, "scenario %q is already defined at line %d", s.Name, prev)
			continue
		}
		names[s.Name] = s.Line
		out = append(out, s)
	}
	return out
}

// fields checks a mapping's keys against the allowed ones and returns its
// values by key.
func (p *parser) fields(n *yaml.Node, what string, allowed ...string) (map[string]*yaml.Node, bool) {
	if n.Kind != yaml.MappingNode {
		p.add(n.Line, "%s must be a mapping of %s", what, strings.Join(allowed, ", "))
		return nil, false
	}
	out := map[string]*yaml.Node{}
	ok := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case !slices.Contains(allowed, k.Value):
			p.add(k.Line, "unknown key %q in %s (allowed: %s)", k.Value, what, strings.Join(allowed, ", "))
			ok = false
		case out[k.Value] != nil:
			p.add(k.Line, "key %q is given twice in %s", k.Value, what)
			ok = false
		default:
			out[k.Value] = v
		}
	}
	return out, ok
}

func (p *parser) scenario(n *yaml.Node) (Scenario, bool) {
	s := Scenario{Line: n.Line}
	f, ok := p.fields(n, "a scenario", "name", "locale", "user", "turns")
	if f == nil {
		return s, false
	}
	if v := f["name"]; v == nil {
		p.add(n.Line, "the scenario has no name")
		ok = false
	} else if s.Name, _ = p.text(v, "name", true); s.Name == "" {
		ok = false
	}
	if v := f["locale"]; v != nil {
		s.Locale, _ = p.text(v, "locale", false)
	}
	if v := f["user"]; v != nil {
		s.User, _ = p.text(v, "user", false)
	}
	what := fmt.Sprintf("scenario %q", s.Name)
	tn := f["turns"]
	switch {
	case tn == nil:
		p.add(n.Line, "%s has no turns", what)
		return s, false
	case tn.Kind != yaml.SequenceNode:
		p.add(tn.Line, "turns of %s must be a list of turns (- say: … or - press: …)", what)
		return s, false
	case len(tn.Content) == 0:
		p.add(tn.Line, "%s has no turns", what)
		return s, false
	}
	for i, t := range tn.Content {
		turn, tok := p.turn(t, fmt.Sprintf("turn %d of %s", i+1, what))
		ok = ok && tok
		s.Turns = append(s.Turns, turn)
	}
	return s, ok
}

func (p *parser) turn(n *yaml.Node, what string) (Turn, bool) {
	t := Turn{Line: n.Line}
	f, ok := p.fields(n, what, "say", "press", "expect")
	if f == nil {
		return t, false
	}
	say, press := f["say"], f["press"]
	switch {
	case say != nil && press != nil:
		p.add(n.Line, "%s has both say and press; a turn is one or the other", what)
		return t, false
	case say == nil && press == nil:
		p.add(n.Line, "%s has neither say nor press", what)
		return t, false
	case say != nil:
		var sok bool
		t.Say, sok = p.text(say, "say", true)
		ok = ok && sok
	default:
		raw, pok := p.text(press, "press", true)
		if pok {
			a, err := view.ParseAction(raw)
			if err != nil {
				p.add(press.Line, "press %q is not a button action (like add|SKU|1, rm|SKU, cart, co): %s", raw, strings.TrimPrefix(err.Error(), "engine: "))
				pok = false
			}
			t.Press = &a
		}
		ok = ok && pok
	}
	if e := f["expect"]; e != nil {
		var eok bool
		t.Expect, eok = p.expect(e, "expect of "+what)
		ok = ok && eok
	}
	return t, ok
}

func (p *parser) expect(n *yaml.Node, what string) (Expect, bool) {
	var x Expect
	f, ok := p.fields(n, what, "shows", "not_shows", "first", "max_price", "min_price", "cart", "order_placed",
		"reply_contains", "reply_not_contains", "tools", "max_model_calls")
	if f == nil {
		return x, false
	}
	lists := []struct {
		key string
		dst *[]string
	}{{"shows", &x.Shows}, {"not_shows", &x.NotShows}, {"reply_contains", &x.ReplyContains},
		{"reply_not_contains", &x.ReplyNotContains}, {"tools", &x.Tools}}
	for _, l := range lists {
		if v := f[l.key]; v != nil {
			var lok bool
			*l.dst, lok = p.list(v, l.key)
			ok = ok && lok
		}
	}
	if v := f["first"]; v != nil {
		var fok bool
		x.First, fok = p.text(v, "first", true)
		ok = ok && fok
	}
	for _, m := range []struct {
		key string
		dst **big.Rat
	}{{"max_price", &x.MaxPrice}, {"min_price", &x.MinPrice}} {
		if v := f[m.key]; v != nil {
			*m.dst = p.price(v, m.key)
			ok = ok && *m.dst != nil
		}
	}
	if v := f["cart"]; v != nil {
		var cok bool
		x.Cart, cok = p.cart(v)
		ok = ok && cok
	}
	if v := f["order_placed"]; v != nil {
		var b bool
		if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" || v.Decode(&b) != nil {
			p.add(v.Line, "order_placed must be true or false, not %q", v.Value)
			ok = false
		} else {
			x.OrderPlaced = &b
		}
	}
	if v := f["max_model_calls"]; v != nil {
		n, nok := p.count(v, "max_model_calls", 0)
		x.MaxModelCalls = &n
		ok = ok && nok
	}
	return x, ok
}

// text reads a string scalar; required refuses an empty one.
func (p *parser) text(n *yaml.Node, key string, required bool) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.add(n.Line, "%s must be text", key)
		return "", false
	}
	s := strings.TrimSpace(n.Value)
	if required && s == "" {
		p.add(n.Line, "%s is empty", key)
		return "", false
	}
	return s, true
}

func (p *parser) list(n *yaml.Node, key string) ([]string, bool) {
	if n.Kind != yaml.SequenceNode {
		p.add(n.Line, "%s must be a list, like %s: [a, b]", key, key)
		return nil, false
	}
	out := []string{}
	ok := true
	for _, v := range n.Content {
		s, sok := p.text(v, "an item of "+key, true)
		ok = ok && sok
		out = append(out, s)
	}
	return out, ok
}

// count reads an integer of at least low.
func (p *parser) count(n *yaml.Node, key string, low int) (int, bool) {
	var v int
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || n.Decode(&v) != nil || v < low {
		p.add(n.Line, "%s must be a whole number of at least %d, not %q", key, low, n.Value)
		return 0, false
	}
	return v, true
}

// decimal is a price as the shopper says it, in major units.
var decimal = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

func (p *parser) price(n *yaml.Node, key string) *big.Rat {
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") || !decimal.MatchString(n.Value) {
		p.add(n.Line, "%s must be a price in the shop's currency like 150 or 89.99, not %q", key, n.Value)
		return nil
	}
	r, _ := new(big.Rat).SetString(n.Value)
	return r
}

func (p *parser) cart(n *yaml.Node) (map[string]int, bool) {
	if n.Kind != yaml.MappingNode {
		p.add(n.Line, "cart must map SKUs to quantities, like cart: {SHO-RUN-001: 2} (cart: {} for an empty cart)")
		return nil, false
	}
	out := map[string]int{}
	ok := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		sku, kok := p.text(k, "a SKU of cart", true)
		q, qok := p.count(v, "the quantity of "+sku, 1)
		if _, dup := out[sku]; dup && kok {
			p.add(k.Line, "SKU %s is given twice in cart", sku)
			kok = false
		}
		ok = ok && kok && qok
		out[sku] = q
	}
	return out, ok
}
