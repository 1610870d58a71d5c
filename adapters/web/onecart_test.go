package web_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog/catalogtest"
)

// TestStreamOneCartPerReply: over SSE, "remove one" (which reads the cart,
// then changes it) streams one cart event, the cart after the change (it
// streamed the old cart, then the new); the JSON answer carries the same.
func TestStreamOneCartPerReply(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		h := shop(t, db)
		turn := func(body, accept string) string {
			t.Helper()
			w := post(h, `{"session":"`+session+`",`+body+`}`, accept)
			if w.Code != 200 {
				t.Fatalf("%s: %d %s", body, w.Code, w.Body)
			}
			return w.Body.String()
		}
		turn(`"action":"add|ELE-HPH-001|3"`, "")
		stream := turn(`"message":"remove one Auralis"`, "text/event-stream")
		var carts []string
		for _, ev := range strings.Split(stream, "\n\n") {
			if data, ok := strings.CutPrefix(ev, "event: cart\ndata: "); ok {
				carts = append(carts, data)
			}
		}
		if len(carts) != 1 || !strings.Contains(carts[0], `"units":2`) {
			t.Fatalf("%d cart events, want one with 2 units:\n%s", len(carts), stream)
		}
		var resp struct {
			Cart struct {
				Units int `json:"units"`
			} `json:"cart"`
		}
		if err := json.Unmarshal([]byte(turn(`"message":"remove one Auralis"`, "")), &resp); err != nil || resp.Cart.Units != 1 {
			t.Errorf("JSON answer: cart of %d units (%v), want 1", resp.Cart.Units, err)
		}
	})
}
