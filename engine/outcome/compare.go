package outcome

import (
	"maps"
	"slices"
	"strings"
)

// Changes says in what ways two outcomes of one turn differ.
type Changes struct {
	Tools    bool `json:"tools"`    // other tools, or other arguments
	Products bool `json:"products"` // other products listed, or in another order
	Cart     bool `json:"cart"`
	Order    bool `json:"order"` // one placed an order and the other did not
	Reply    bool `json:"reply"` // other words (spacing and case aside)
}

// Any reports whether anything changed.
func (c Changes) Any() bool { return c.Tools || c.Products || c.Cart || c.Order || c.Reply }

// String names what changed, e.g. "tools, cart".
func (c Changes) String() string {
	var parts []string
	for _, p := range []struct {
		on   bool
		name string
	}{{c.Tools, "tools"}, {c.Products, "products"}, {c.Cart, "cart"}, {c.Order, "order"}, {c.Reply, "reply"}} {
		if p.on {
			parts = append(parts, p.name)
		}
	}
	if len(parts) == 0 {
		return "unchanged"
	}
	return strings.Join(parts, ", ")
}

// Compare tells then and now apart. Order numbers are random, so only
// whether an order was placed counts.
func Compare(then, now Outcome) Changes {
	return Changes{
		Tools:    !slices.Equal(then.Tools, now.Tools),
		Products: !slices.Equal(then.SKUs(), now.SKUs()),
		Cart:     !maps.Equal(then.Cart, now.Cart),
		Order:    (then.Order == "") != (now.Order == ""),
		Reply:    normalize(then.Reply) != normalize(now.Reply),
	}
}

func normalize(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
