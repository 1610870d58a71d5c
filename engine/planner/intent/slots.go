package intent

// Intent slots: product references, quantities, prices, sort, periods, numbers, queries.
import (
	"strconv"
	"strings"

	"shopbot/catalog/clip"
)

// extractRefs takes the product references out of toks: ordinals ("the
// second one", "второго", "#3"), "it"/"этот" (the focus) and, when digits
// is set, bare small numbers ("compare 1 and 3").
func extractRefs(toks []string, digits bool) (refs []Ref, rest []string) {
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		pos, ok := ordinalOf(t)
		if !ok && i+1 < len(toks) && vNumberWord[t] {
			if pos, ok = smallNumber(toks[i+1]); ok {
				i++
			}
		}
		if !ok && digits {
			pos, ok = smallNumber(t)
		}
		switch {
		case ok && pos == 1 && i+1 < len(toks) && firstFew(toks[i+1]) > 1:
			// "the first two", "первые три": the first n.
			for n := 1; n <= firstFew(toks[i+1]); n++ {
				refs = addRef(refs, Ref{Pos: n})
			}
			i++
		case ok:
			refs = addRef(refs, Ref{Pos: pos})
			if i+1 < len(toks) && (toks[i+1] == "one" || toks[i+1] == "ones") {
				i++
			}
		case vFocus[t] || (t == "that" || t == "this") && i+1 < len(toks) && toks[i+1] == "one":
			refs = addRef(refs, Ref{Focus: true})
		default:
			rest = append(rest, t)
		}
	}
	return refs, rest
}

// firstFew reads the n of "the first n" (2 to 5), or 0.
func firstFew(t string) int {
	if n, ok := qtyOf(t); ok && n >= 2 && n <= MaxRefsPerAction {
		return n
	}
	return 0
}

func addRef(refs []Ref, r Ref) []Ref {
	for _, have := range refs {
		if have == r {
			return refs
		}
	}
	return append(refs, r)
}

// maxRef is the most cards a tool shows at once.
const maxRef = 10

// MaxRefsPerAction bounds the products one message adds or removes.
const MaxRefsPerAction = 5

// ordinalOf reads "second", "2nd", "#2", "№2", "второй", "второго", "last".
func ordinalOf(t string) (int, bool) {
	if pos, ok := vOrdinalEN[t]; ok {
		return pos, true
	}
	if n, ok := strings.CutPrefix(t, "#"); ok {
		return smallNumber(n)
	}
	if n, ok := strings.CutPrefix(t, "№"); ok {
		return smallNumber(n)
	}
	for _, o := range vOrdinalRU {
		if rest, ok := strings.CutPrefix(t, o.stem); ok && vOrdinalEndRU[rest] {
			return o.pos, true
		}
	}
	return 0, false
}

func smallNumber(t string) (int, bool) {
	n, err := strconv.Atoi(t)
	if err != nil || n < 1 || n > maxRef {
		return 0, false
	}
	return n, true
}

// extractQty takes the first quantity out of toks: "2", "x2", "2шт",
// "two", "две". A unit word after it goes too.
func extractQty(toks []string) (qty int, rest []string, ok bool) {
	for i := 0; i < len(toks); i++ {
		n, found := qtyOf(toks[i])
		if !found || ok {
			rest = append(rest, toks[i])
			continue
		}
		qty, ok = n, true
		if i+1 < len(toks) && vUnit[toks[i+1]] {
			i++
		}
	}
	return qty, rest, ok
}

// maxQty is the largest number read as a quantity; the tools bound it
// further (99 per cart line).
const maxQty = 1000

func qtyOf(t string) (int, bool) {
	if n, ok := vNumberEN[t]; ok {
		return n, true
	}
	if n, ok := vNumberRU[t]; ok {
		return n, true
	}
	t = strings.TrimPrefix(t, "x")
	for _, u := range []string{"x", "шт", "pcs"} {
		t = strings.TrimSuffix(t, u)
	}
	n, err := strconv.Atoi(t)
	if err != nil || n < 0 || n > maxQty {
		return 0, false
	}
	return n, true
}

// extractSort takes a sort hint out of toks: "cheapest", "дешевле всего",
// "best rated", "popular".
func extractSort(toks []string, in *Intent) []string {
	for _, s := range sortHints {
		if hasPhrase(toks, s.words) {
			in.Sort = s.sort
			return cutAll(toks, s.words)
		}
	}
	return toks
}

// daysIn reads a period: "7 days", "на 3 дня", "a week", "за месяц".
func daysIn(toks []string) int {
	for i, t := range toks {
		d := periodOf(t)
		if d == 0 {
			continue
		}
		if i > 0 {
			if n, err := strconv.Atoi(toks[i-1]); err == nil && n > 0 && n <= 366 {
				return min(n*d, 366)
			}
		}
		return d
	}
	return 0
}

func periodOf(t string) int {
	for _, p := range vPeriod {
		if wordIs(t, p.word) {
			return p.days
		}
	}
	return 0
}

// orderNumber finds "SB-XXXXXXXX" in the message.
func orderNumber(toks []string) string {
	for _, t := range toks {
		if rest, ok := strings.CutPrefix(t, "sb-"); ok && len(rest) >= 4 && len(rest) <= 16 && isAlnum(rest) {
			return "SB-" + strings.ToUpper(rest)
		}
	}
	return ""
}

// accountNumber finds "user 42", "customer #7", "user id 42",
// "пользователя номер 5": an account named by its number.
func accountNumber(toks []string) bool {
	for i := range toks {
		n := matchLen(toks, i, vAccount)
		if n == 0 {
			continue
		}
		j := i + n
		if j < len(toks) && vNumberWord[toks[j]] {
			j++
		}
		if j < len(toks) && isNumber(strings.TrimLeft(toks[j], "#№")) {
			return true
		}
	}
	return false
}

// maxQueryRunes keeps a query well inside search_products' 200 characters.
const maxQueryRunes = 100

func queryOf(words []string) string {
	return strings.TrimSpace(clip.Runes(strings.Join(words, " "), maxQueryRunes))
}

func isAlnum(s string) bool {
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z') {
			return false
		}
	}
	return s != ""
}

func isNumber(t string) bool {
	_, err := strconv.Atoi(t)
	return err == nil
}
