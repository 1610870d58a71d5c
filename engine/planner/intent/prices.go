package intent

// Price phrases the shared parser (analysis.CutPrices) reads as floors but
// shoppers mean as ceilings: "nothing over $80", "not above 50", "don't
// want to spend more than 20", "не больше 70"; and a stated budget.
import "slices"

var (
	// vNegation turns a floor phrase after it into a ceiling.
	vNegation = ph("nothing|not|no|don't|dont|do not|never|without|won't|wont|can't|cant|ничего|не|нет")
	// vFloor are the floor phrases a negation turns.
	vFloor = ph("over|above|more than|more then|beyond|дороже|больше|выше")
	// vBudgetIs: "my budget is 30", "budget of 30", "бюджет 5000".
	vBudgetIs = ph("budget is|budget of|budget|бюджет|бюджет до")
)

// negationReach is how many words may stand between a negation and the
// floor phrase it turns ("don't want to spend more than").
const negationReach = 4

// negatedFloors rewrites negated floors and budgets as "under".
func negatedFloors(toks []string) []string {
	out := slices.Clone(toks)
	for i := 0; i < len(out); i++ {
		if n := matchLen(out, i, vBudgetIs); n > 0 && i+n < len(out) && isAmount(out[i+n]) {
			out = append(out[:i], append([]string{"under"}, out[i+n:]...)...)
			continue
		}
		n := matchLen(out, i, vFloor)
		if n == 0 || !negatedBefore(out, i) {
			continue
		}
		start := i
		if i > 0 && matchLen(out, i-1, vNegation) == 1 { // "не больше": the negation goes too
			start = i - 1
		}
		out = append(out[:start], append([]string{"under"}, out[i+n:]...)...)
		i = start
	}
	return out
}

func negatedBefore(toks []string, i int) bool {
	for j := max(0, i-negationReach); j < i; j++ {
		if matchLen(toks, j, vNegation) > 0 {
			return true
		}
	}
	return false
}

func isAmount(t string) bool {
	_, ok := qtyOf(t)
	return ok || len(t) > 1 && (t[0] == '$' || t[len(t)-1] == '$')
}
