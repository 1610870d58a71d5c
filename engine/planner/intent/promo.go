package intent

import (
	"regexp"
	"strings"
	"unicode"
)

// Promo codes: "I have a code SPRING10", "promo code: spring10",
// "промокод SPRING10", "remove the coupon". The planner's promo.go
// applies or removes the code with apply_promo_code.

// IntentPromo applies the code in Value, or removes the cart's code when
// Topic is "remove".
const IntentPromo Kind = "promo"

// promoWords is a keyword and the code after it, with an optional "is",
// ":" or "=" between; the code is checked by looksLikeCode.
var promoWords = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:promo[\s-]*code|promocode|promo|coupon(?:\s+code)?|discount\s+code|voucher(?:\s+code)?|gift\s+code|code|промо-?код[а-я]*|купон[а-я]*|код(?:\s+скидки)?)(?:\s*[:=—-]\s*|\s+)(?:(?:is|это)\s+)?["«'“]?([\p{L}\p{N}_-]+)`)

// promoRemove is a request to take the code off: a verb and a promo word.
var promoRemove = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:remove|delete|drop|cancel|clear|take off|don'?t use|убери|удали|отмени|сними|убрать|удалить|отменить)\s.*(?:promo|coupon|discount code|voucher|промокод|купон|код)`)

// matchPromo recognizes a promo code given or taken back.
func matchPromo(m *parseMsg) (Intent, bool) {
	if len(m.raw) > 300 {
		return Intent{}, false
	}
	if promoRemove.MatchString(m.raw) {
		return Intent{Kind: IntentPromo, Topic: "remove"}, true
	}
	for _, sm := range promoWords.FindAllStringSubmatch(m.raw, 3) {
		if looksLikeCode(sm[1]) {
			return Intent{Kind: IntentPromo, Value: sm[1]}, true
		}
	}
	return Intent{}, false
}

// looksLikeCode tells a code ("SPRING10", "spring10", "WELCOME") from a
// word that follows "code" in a sentence ("a code for shoes"): a code has
// a digit or is written in capitals. A code in other than Latin letters
// still counts, so the tool can say codes are Latin.
func looksLikeCode(w string) bool {
	if len([]rune(w)) < 3 {
		return false
	}
	if strings.IndexFunc(w, unicode.IsDigit) >= 0 {
		return true
	}
	return strings.ToUpper(w) == w && strings.IndexFunc(w, unicode.IsLetter) >= 0
}
