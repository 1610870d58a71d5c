package catalog_test

import (
	"errors"
	"strings"
	"testing"

	"shopbot/catalog"
)

func TestParseAmount(t *testing.T) {
	for _, tc := range []struct {
		in, cur string
		want    int64
		ok      bool
	}{
		{"89.99", "USD", 8999, true},
		{"89.9", "USD", 8990, true},
		{"89", "USD", 8900, true},
		{" 0.50 ", "EUR", 50, true},
		{"1500", "JPY", 1500, true},
		{"1.234", "KWD", 1234, true},
		{"1.5", "JPY", 0, false},
		{"89.999", "USD", 0, false},
		{"-1.00", "USD", 0, false},
		{"1,000.00", "USD", 0, false},
		{"1e3", "USD", 0, false},
		{"abc", "USD", 0, false},
		{"", "USD", 0, false},
		{".5", "USD", 0, false},
		{"5.", "USD", 0, false},
		{"99999999999999999999", "USD", 0, false},
		{"10.00", "XXX", 0, false},
	} {
		got, err := catalog.ParseAmount(tc.in, tc.cur)
		if tc.ok && (err != nil || got != tc.want) {
			t.Errorf("ParseAmount(%q, %s) = %d, %v; want %d", tc.in, tc.cur, got, err, tc.want)
		}
		if !tc.ok && !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("ParseAmount(%q, %s) = %d, %v; want ErrInvalid", tc.in, tc.cur, got, err)
		}
	}
}

func TestFormatPrice(t *testing.T) {
	for _, tc := range []struct {
		amount int64
		cur    string
		want   string
	}{
		{8999, "USD", "$89.99"},
		{5, "USD", "$0.05"},
		{1250, "EUR", "€12.50"},
		{129000, "RUB", "1290.00 ₽"},
		{1500, "JPY", "1500 JPY"},
		{1234, "KWD", "1.234 KWD"},
	} {
		if got := catalog.FormatPrice(tc.amount, tc.cur); got != tc.want {
			t.Errorf("FormatPrice(%d, %s) = %q, want %q", tc.amount, tc.cur, got, tc.want)
		}
	}
	if got := catalog.FormatAmount(8999, "USD"); got != "89.99 USD" {
		t.Errorf("FormatAmount = %q", got)
	}
}

func TestParseDatabaseURL(t *testing.T) {
	for _, tc := range []struct {
		in, kind string
		ok       bool
	}{
		{"sqlite:shopbot.db", "sqlite", true},
		{"sqlite:///var/lib/shopbot/shop.db", "sqlite", true},
		{"postgres://u:secret@db:5432/shop?sslmode=disable", "postgres", true},
		{"postgresql://db/shop", "postgres", true},
		{"sqlite:", "", false},
		{"mysql://u:secret@db/shop", "", false},
		{"postgres://", "", false},
		{"shopbot.db", "", false},
	} {
		info, err := catalog.ParseDatabaseURL(tc.in)
		if tc.ok != (err == nil) || info.Kind != tc.kind {
			t.Errorf("ParseDatabaseURL(%q) = %+v, %v", tc.in, info, err)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("error leaks the password: %v", err)
		}
	}
}
