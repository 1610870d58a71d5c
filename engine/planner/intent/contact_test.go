package intent

import (
	"maps"
	"testing"
)

func TestParseContact(t *testing.T) {
	for _, tc := range []struct {
		in       string
		needName bool
		want     map[string]string
	}{
		{"Eva Stone, +1 555 0100, 1 Main St", true, map[string]string{"name": "Eva Stone", "phone": "+1 555 0100", "address": "1 Main St"}},
		{"+1 212 555 0147, John Carter, 45 Park Avenue, New York", true,
			map[string]string{"name": "John Carter", "phone": "+1 212 555 0147", "address": "45 Park Avenue, New York"}},
		{"10 Downing Street, London, Rishi Patel, 020 7946 0000", true,
			map[string]string{"name": "Rishi Patel", "phone": "020 7946 0000", "address": "10 Downing Street, London"}},
		{"name: Lee Wong; phone: 415-555-0112; address: 9 Pine Rd, Oakland", true,
			map[string]string{"name": "Lee Wong", "phone": "415-555-0112", "address": "9 Pine Rd, Oakland"}},
		{"Tom Ford tom@example.org +1 303 555 0188 742 Evergreen Terrace Springfield", true,
			map[string]string{"name": "Tom Ford", "phone": "+1 303 555 0188", "address": "742 Evergreen Terrace Springfield"}},
		{"Анна Смирнова, 8 (916) 123-45-67, г. Казань, ул. Баумана, д. 12", true,
			map[string]string{"name": "Анна Смирнова", "phone": "8 (916) 123-45-67", "address": "г. Казань, ул. Баумана, д. 12"}},
		{"+7 903 111 22 33 Сергей Иванов Санкт-Петербург Невский проспект 28", true,
			map[string]string{"name": "Сергей Иванов", "phone": "+7 903 111 22 33", "address": "Санкт-Петербург, Невский проспект 28"}},
		{"500 Market Street, San Francisco", false, map[string]string{"address": "500 Market Street, San Francisco"}},
		{"Maria Garcia +1 (415) 555-0199", true, map[string]string{"name": "Maria Garcia", "phone": "+1 (415) 555-0199"}},
		{"Nina Brown", true, map[string]string{"name": "Nina Brown"}},
		{"next tuesday maybe", true, map[string]string{}},
	} {
		if got := parseContact(tc.in, tc.needName); !maps.Equal(got, tc.want) {
			t.Errorf("parseContact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
