package engine

// Intent slots: product references, quantities, prices, sort, periods, numbers, queries.
import (
	"strconv"
	"strings"
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

// maxRefsPerAction bounds the products one message adds or removes.
const maxRefsPerAction = 5

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

// extractPrices takes price limits out of toks: "under 100", "до 5000",
// "between 20 and 50", "от 20 до 50", "20-50", "<100".
func extractPrices(toks []string, in *Intent) []string {
	var rest []string
	for i := 0; i < len(toks); i++ {
		if n := priceAt(toks, i, in); n > 0 {
			i += n - 1
			continue
		}
		rest = append(rest, toks[i])
	}
	if in.MaxPrice > 0 && in.MinPrice > in.MaxPrice {
		in.MinPrice, in.MaxPrice = in.MaxPrice, in.MinPrice
	}
	return rest
}

// priceAt reads a price limit starting at toks[i] into in and returns how
// many words it took (0: none here).
func priceAt(toks []string, i int, in *Intent) int {
	if lo, hi, ok := rangeToken(toks[i]); ok {
		in.MinPrice, in.MaxPrice = lo, hi
		return 1
	}
	if n := matchLen(toks, i, vPriceMin); n > 0 {
		lo, k, ok := amountAt(toks, i+n)
		if !ok {
			return 0
		}
		in.MinPrice = lo
		if m := matchLen(toks, i+n+k, vPriceUpper); m > 0 {
			if hi, k2, ok := amountAt(toks, i+n+k+m); ok {
				in.MaxPrice = hi
				return n + k + m + k2
			}
		}
		return n + k
	}
	if n := matchLen(toks, i, vPriceMax); n > 0 {
		hi, k, ok := amountAt(toks, i+n)
		if !ok {
			return 0
		}
		in.MaxPrice = hi
		return n + k
	}
	return comparisonAt(toks[i], in)
}

// comparisonAt reads "<100" and ">50".
func comparisonAt(t string, in *Intent) int {
	dst := &in.MaxPrice
	v, ok := strings.CutPrefix(t, "<")
	if !ok {
		if v, ok = strings.CutPrefix(t, ">"); !ok {
			return 0
		}
		dst = &in.MinPrice
	}
	amount, ok := parseAmount(v)
	if !ok {
		return 0
	}
	*dst = amount
	return 1
}

// rangeToken reads "20-50" and "$20-$50".
func rangeToken(t string) (lo, hi float64, ok bool) {
	a, b, found := strings.Cut(t, "-")
	if !found {
		return 0, 0, false
	}
	lo, ok1 := parseAmount(a)
	hi, ok2 := parseAmount(b)
	if !ok1 || !ok2 || hi < lo {
		return 0, 0, false
	}
	return lo, hi, true
}

// amountAt reads an amount at toks[i]: "100", "$150", "5 000", "1,5k",
// with an optional currency word before or after. It returns the number
// of words used.
func amountAt(toks []string, i int) (v float64, n int, ok bool) {
	start := i
	if i < len(toks) && vCurrency[toks[i]] {
		i++
	}
	if i >= len(toks) {
		return 0, 0, false
	}
	if v, ok = parseAmount(toks[i]); !ok {
		return 0, 0, false
	}
	i++
	if i < len(toks) && len(toks[i]) == 3 && v >= 1 && v < 1000 && v == float64(int(v)) {
		if k, err := strconv.Atoi(toks[i]); err == nil { // "5 000"
			v, i = v*1000+float64(k), i+1
		}
	}
	if i < len(toks) && vCurrency[toks[i]] {
		i++
	}
	return v, i - start, true
}

// maxAmount bounds amounts well below what search_products accepts.
const maxAmount = 1e8

// parseAmount reads "150", "$150", "150$", "19.99", "19,99", "1,000",
// "5k", "5к", "5000₽".
func parseAmount(t string) (float64, bool) {
	t = strings.Trim(t, "$₽€£")
	for _, suffix := range []string{"usd", "руб", "р"} {
		t = strings.TrimSuffix(t, suffix)
	}
	mult := 1.0
	if s, ok := strings.CutSuffix(t, "k"); ok {
		t, mult = s, 1000
	} else if s, ok := strings.CutSuffix(t, "к"); ok {
		t, mult = s, 1000
	}
	if a, b, ok := strings.Cut(t, ","); ok {
		if len(b) == 3 && !strings.Contains(b, ",") && !strings.Contains(a, ".") {
			t = a + b // 1,000
		} else {
			t = a + "." + b // 19,99
		}
	}
	if t == "" || !isDecimal(t) {
		return 0, false
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v*mult > maxAmount {
		return 0, false
	}
	return v * mult, true
}

func isDecimal(t string) bool {
	dots := 0
	for _, r := range t {
		switch {
		case r == '.':
			dots++
		case r < '0' || r > '9':
			return false
		}
	}
	return dots <= 1 && t != "."
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
	return truncateRunes(strings.Join(words, " "), maxQueryRunes)
}

func truncateRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return strings.TrimSpace(string(r[:n]))
	}
	return s
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
