package catalog

import (
	"fmt"
	"strconv"
	"strings"
)

// currencyDigits maps active ISO 4217 codes to their minor-unit exponent.
var currencyDigits = func() map[string]int {
	m := map[string]int{}
	groups := map[int]string{
		0: "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF",
		3: "BHD IQD JOD KWD LYD OMR TND",
		4: "CLF UYW",
		2: "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP BYN BZD " +
			"CAD CDF CHF CNY COP CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ " +
			"GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA " +
			"MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR " +
			"RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD " +
			"TWD TZS UAH USD UZS VES WST XCD YER ZAR ZMW ZWG",
	}
	for digits, codes := range groups {
		for _, c := range strings.Fields(codes) {
			m[c] = digits
		}
	}
	return m
}()

// maxAmount bounds prices (in minor units) so arithmetic never overflows.
const maxAmount = 1_000_000_000_000

// CurrencyDigits returns the number of minor-unit digits of a currency
// (2 for USD, 0 for JPY) and whether the code is known.
func CurrencyDigits(code string) (int, bool) {
	d, ok := currencyDigits[code]
	return d, ok
}

// NormalizeCurrency upper-cases and validates an ISO 4217 code.
func NormalizeCurrency(code string) (string, error) {
	c := strings.ToUpper(strings.TrimSpace(code))
	if _, ok := currencyDigits[c]; !ok {
		return "", fmt.Errorf("%w: unknown currency %q (use an ISO 4217 code such as USD or EUR)", ErrInvalid, code)
	}
	return c, nil
}

// ParseAmount converts a decimal string such as "89.99" into minor units of
// the currency. It rejects negatives, thousands separators, exponents and
// more decimals than the currency has.
func ParseAmount(s, currency string) (int64, error) {
	digits, ok := currencyDigits[currency]
	if !ok {
		return 0, fmt.Errorf("%w: unknown currency %q", ErrInvalid, currency)
	}
	s = strings.TrimSpace(s)
	whole, frac, hasDot := strings.Cut(s, ".")
	if whole == "" || !allDigits(whole) || (hasDot && (frac == "" || !allDigits(frac))) {
		return 0, fmt.Errorf("%w: price %q is not a decimal amount like 89.99", ErrInvalid, s)
	}
	if len(frac) > digits {
		return 0, fmt.Errorf("%w: price %q has more than %d decimals for %s", ErrInvalid, s, digits, currency)
	}
	frac += strings.Repeat("0", digits-len(frac))
	n, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil || n > maxAmount {
		return 0, fmt.Errorf("%w: price %q is too large", ErrInvalid, s)
	}
	return n, nil
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// FormatAmount renders minor units as a plain decimal with the currency
// code, e.g. "89.99 USD"; shoppers see FormatPrice.
func FormatAmount(amount int64, currency string) string {
	return decimal(amount, currency) + " " + currency
}

// FormatPrice renders a price for people: "$89.99", "€12.50", "1290.00 ₽" with
// symbols for common currencies, "89.99 CHF" otherwise.
func FormatPrice(amount int64, currency string) string {
	d := decimal(amount, currency)
	switch currency {
	case "USD":
		return "$" + d
	case "EUR":
		return "€" + d
	case "GBP":
		return "£" + d
	case "RUB":
		return d + " ₽"
	}
	return d + " " + currency
}

func decimal(amount int64, currency string) string {
	digits := currencyDigits[currency]
	sign := ""
	if amount < 0 {
		sign, amount = "-", -amount
	}
	s := strconv.FormatInt(amount, 10)
	if digits == 0 {
		return sign + s
	}
	if len(s) <= digits {
		s = strings.Repeat("0", digits-len(s)+1) + s
	}
	return sign + s[:len(s)-digits] + "." + s[len(s)-digits:]
}
