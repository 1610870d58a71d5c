package eval

import (
	"maps"
	"slices"

	"gopkg.in/yaml.v3"
)

// scenarioFile is a scenario as the file format writes it (scenario.go
// reads it back).
type scenarioFile struct {
	Name   string         `yaml:"name"`
	Locale string         `yaml:"locale,omitempty"`
	User   string         `yaml:"user,omitempty"`
	Turns  []scenarioTurn `yaml:"turns"`
}

type scenarioTurn struct {
	Say    string          `yaml:"say,omitempty"`
	Press  string          `yaml:"press,omitempty"`
	Expect *scenarioExpect `yaml:"expect,omitempty"`
}

type scenarioExpect struct {
	Cart        map[string]int `yaml:"cart"`
	OrderPlaced bool           `yaml:"order_placed"`
	Tools       []string       `yaml:"tools,omitempty,flow"`
}

// WriteScenario writes a stored conversation as a scenario file of one
// scenario: each shopper turn said or pressed again, expecting what
// happened then: the cart (rebuilt as replay does), whether an order was
// placed and the tools called. Not the products: the transcript keeps
// the tool results, which may list more than the cards the shopper saw,
// so shows is left for the merchant to write.
func WriteScenario(c *Stored, name string) ([]byte, error) {
	sc := scenarioFile{Name: name}
	if c.Customer != nil {
		sc.Locale, sc.User = c.Customer.Locale, c.Customer.DisplayName
	}
	cart := map[string]int{}
	for _, t := range splitTurns(c.Messages) {
		msgs := c.Messages[t.start:t.end]
		text, action := turnInput(msgs[0])
		st := scenarioTurn{Say: text}
		if action != nil {
			st = scenarioTurn{Press: action.Encode()}
		}
		o := turnOutcome(msgs)
		cart = applyCart(cart, msgs)
		st.Expect = &scenarioExpect{Cart: maps.Clone(cart), OrderPlaced: o.Order != "", Tools: uniq(o.ToolNames())}
		sc.Turns = append(sc.Turns, st)
	}
	return yaml.Marshal([]scenarioFile{sc})
}

func uniq(names []string) []string {
	slices.Sort(names)
	return slices.Compact(names)
}
