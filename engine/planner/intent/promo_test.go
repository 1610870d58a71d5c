package intent

import (
	"strings"
	"testing"
)

func TestParsePromo(t *testing.T) {
	for _, tc := range []struct {
		text       string
		kind       Kind
		code, lang string
	}{
		{"I have a code SPRING10", IntentPromo, "SPRING10", "en"},
		{"promo code: spring10", IntentPromo, "spring10", "en"},
		{"my promo code is WELCOME", IntentPromo, "WELCOME", "en"},
		{"apply coupon BF-2026 please", IntentPromo, "BF-2026", "en"},
		{"code ISLAND", IntentPromo, "ISLAND", "en"},
		{"промокод SPRING10", IntentPromo, "SPRING10", "ru"},
		{"у меня есть промокод: spring10", IntentPromo, "spring10", "ru"},
		{"промокод СПРИНГ10", IntentPromo, "СПРИНГ10", "ru"},
		{"remove the promo code", IntentPromo, "", "en"},
		{"убери промокод", IntentPromo, "", "ru"},
		// Not codes (IntentSearch stands for "anything but a code"): a word
		// after "code", a barcode, no keyword, a run-on message.
		{"do you have a coupon for shoes", IntentSearch, "", "en"},
		{"barcode 4006381333931", IntentSearch, "", "en"},
		{"SPRING10", IntentSearch, "", "en"},
		{"code " + strings.Repeat("A", 400), IntentSearch, "", "en"},
	} {
		in := Parse(tc.text, "", nil)
		if tc.kind != IntentPromo && in.Kind != IntentPromo {
			continue // whatever else it is, it is not a code
		}
		if in.Kind != tc.kind || in.Value != tc.code || in.Lang != tc.lang {
			t.Errorf("Parse(%.40q) = %+v; want %s %q", tc.text, in, tc.kind, tc.code)
		}
		if tc.kind == IntentPromo && tc.code == "" && in.Topic != "remove" {
			t.Errorf("Parse(%q): topic %q, want remove", tc.text, in.Topic)
		}
	}
}
