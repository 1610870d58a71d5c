package analysis

import (
	"slices"
	"strconv"
	"strings"
)

// Price phrases in query text: "under 100", "до 5000", "between 20 and
// 50", "от 20 до 50", "20-50", "<100", "$150", "5 000 ₽". The offline
// planner turns them into price filters; ranking leaves them out, since
// "100" in "backpack under 100" is a limit, not a word to match ("100 Tea
// Bags" is no backpack).

// PriceRange is a price limit read from text, in the shop currency; zero
// means no bound.
type PriceRange struct{ Min, Max float64 }

// MaxAmount bounds the amounts read from text, well below what the search
// tool accepts.
const MaxAmount = 1e8

var (
	priceMin = phraseList("over|above|more than|at least|from|min|minimum|starting at|starting from|between|" +
		"от|дороже|больше|выше|минимум|не дешевле|между")
	priceUpper = phraseList("and|to|до|и|по")
	priceMax   = phraseList("under|below|less than|cheaper than|up to|upto|max|maximum|at most|no more than|not more than|" +
		"within|for less than|до|дешевле|меньше|не дороже|не больше|максимум|макс|в пределах|ниже")
	currencyWords = wordSet("$ usd dollars dollar bucks ₽ руб рублей рубля рубль р eur euro euros евро долларов доллара баксов")
)

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// phraseList splits "a|b c" into phrases of words, longest first.
func phraseList(s string) [][]string {
	var out [][]string
	for _, p := range strings.Split(s, "|") {
		out = append(out, strings.Fields(p))
	}
	slices.SortStableFunc(out, func(a, b []string) int { return len(b) - len(a) })
	return out
}

// phraseLen is the length of the longest phrase of ps at toks[i], or 0.
func phraseLen(toks []string, i int, ps [][]string) int {
next:
	for _, p := range ps {
		if i+len(p) > len(toks) {
			continue
		}
		for j, w := range p {
			if toks[i+j] != w {
				continue next
			}
		}
		return len(p)
	}
	return 0
}

// CutPrices takes the price phrases out of toks (lower-cased words that
// keep the marks amounts use: $ ₽ . , - < >) and returns the other words
// and the range the phrases state. A minimum above the maximum is swapped.
func CutPrices(toks []string) (rest []string, r PriceRange) {
	for i := 0; i < len(toks); i++ {
		if n := priceAt(toks, i, &r); n > 0 {
			i += n - 1
			continue
		}
		rest = append(rest, toks[i])
	}
	if r.Max > 0 && r.Min > r.Max {
		r.Min, r.Max = r.Max, r.Min
	}
	return rest, r
}

// WithoutPrices is text without its price phrases, lower-cased, or text
// as it is when it has none: what a query with a price filter is ranked
// by (search.Query.RankText).
func WithoutPrices(text string) string {
	toks := strings.Fields(strings.ToLower(text))
	for i, t := range toks {
		toks[i] = strings.Trim(t, ",;:!?()\"'")
	}
	rest, r := CutPrices(toks)
	if r == (PriceRange{}) {
		return text
	}
	return strings.Join(rest, " ")
}

// priceAt reads a price limit starting at toks[i] into r and returns how
// many words it took (0: none here).
func priceAt(toks []string, i int, r *PriceRange) int {
	if lo, hi, ok := rangeToken(toks[i]); ok {
		r.Min, r.Max = lo, hi
		return 1
	}
	if n := phraseLen(toks, i, priceMin); n > 0 {
		lo, k, ok := AmountAt(toks, i+n)
		if !ok {
			return 0
		}
		r.Min = lo
		if m := phraseLen(toks, i+n+k, priceUpper); m > 0 {
			if hi, k2, ok := AmountAt(toks, i+n+k+m); ok {
				r.Max = hi
				return n + k + m + k2
			}
		}
		return n + k
	}
	if n := phraseLen(toks, i, priceMax); n > 0 {
		hi, k, ok := AmountAt(toks, i+n)
		if !ok {
			return 0
		}
		r.Max = hi
		return n + k
	}
	return comparisonAt(toks[i], r)
}

// comparisonAt reads "<100" and ">50".
func comparisonAt(t string, r *PriceRange) int {
	dst := &r.Max
	v, ok := strings.CutPrefix(t, "<")
	if !ok {
		if v, ok = strings.CutPrefix(t, ">"); !ok {
			return 0
		}
		dst = &r.Min
	}
	amount, ok := ParseAmount(v)
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
	lo, ok1 := ParseAmount(a)
	hi, ok2 := ParseAmount(b)
	if !ok1 || !ok2 || hi < lo {
		return 0, 0, false
	}
	return lo, hi, true
}

// AmountAt reads an amount at toks[i]: "100", "$150", "5 000", "1,5k",
// with an optional currency word before or after. It returns the number
// of words used.
func AmountAt(toks []string, i int) (v float64, n int, ok bool) {
	start := i
	if i < len(toks) && currencyWords[toks[i]] {
		i++
	}
	if i >= len(toks) {
		return 0, 0, false
	}
	if v, ok = ParseAmount(toks[i]); !ok {
		return 0, 0, false
	}
	i++
	if i < len(toks) && len(toks[i]) == 3 && v >= 1 && v < 1000 && v == float64(int(v)) {
		if k, err := strconv.Atoi(toks[i]); err == nil { // "5 000"
			v, i = v*1000+float64(k), i+1
		}
	}
	if i < len(toks) && currencyWords[toks[i]] {
		i++
	}
	return v, i - start, true
}

// ParseAmount reads "150", "$150", "150$", "19.99", "19,99", "1,000",
// "5k", "5к", "5000₽".
func ParseAmount(t string) (float64, bool) {
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
	if err != nil || v*mult > MaxAmount {
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
