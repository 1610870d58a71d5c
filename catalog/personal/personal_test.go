package personal

import "testing"

func TestMask(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Eva Stone, +1 555 0100, 1 Main St", "Eva Stone, [phone], [address]"},
		{"eva.stone@example.com", "[email]"},
		{"write to anna@почта.рф please", "write to [email] please"},
		{"221B Baker Street, London", "[address], London"},
		{"my number is 415-555-0134, call me", "my number is [phone], call me"},
		{"Анна, 8 (916) 123-45-67, ул. Баумана, д. 12", "Анна, [phone], [address]"},
		{"+7 903 111 22 33 Сергей Невский проспект 28", "[phone] Сергей [address]"},
		{"ул. Ленина, д. 5, кв. 12", "[address], [address]"},
		// Product searches stay as they are.
		{"running shoes under 100", "running shoes under 100"},
		{"кроссовки от 3000 до 5 000 руб", "кроссовки от 3000 до 5 000 руб"},
		{"Brickwise Classic Creative Brick Box, 1,000 Pieces", "Brickwise Classic Creative Brick Box, 1,000 Pieces"},
		{"order SB-12345678", "order SB-12345678"},
		{"Hearthfield dog food 15 lb", "Hearthfield dog food 15 lb"},
		{"sizes 40, 41, 42, 43", "sizes 40, 41, 42, 43"},
		{"ноутбук 16 ГБ SSD 512", "ноутбук 16 ГБ SSD 512"},
	} {
		if got := Mask(tc.in); got != tc.want {
			t.Errorf("Mask(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := Contains(tc.in); got != (tc.want != tc.in) {
			t.Errorf("Contains(%q) = %v", tc.in, got)
		}
	}
}
