package engine

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"shopbot/catalog/search/searchtest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// TestLogsMaskContactDetails: what a shopper types reaches the log, with
// phone numbers, e-mails and street addresses masked, in attributes,
// errors and groups alike.
func TestLogsMaskContactDetails(t *testing.T) {
	var buf bytes.Buffer
	env := newTestEnv(t)
	eng, err := New(Config{DB: env.db, Search: searchtest.NewDatabase(env.db), Registry: prometheus.NewRegistry(),
		Now:    func() time.Time { return fixedNow },
		Logger: slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	text := "I'm Eva Stone, +1 555 0100, eva@example.com, 1 Main St"
	if err := eng.Handle(context.Background(), Turn{Channel: "web", ChatID: "c1", UserID: "u1", Text: text, DedupKey: "k1"}, &events{}); err != nil {
		t.Fatal(err)
	}
	eng.log.Error("turn failed", "err", errors.New("checkout: phone +1 555 0100 refused"),
		slog.Group("turn", "text", "ship to 221B Baker Street"))
	out := buf.String()
	for _, secret := range []string{"555 0100", "eva@example.com", "1 Main St", "221B Baker Street"} {
		if strings.Contains(out, secret) {
			t.Errorf("log shows %q:\n%s", secret, out)
		}
	}
	for _, kept := range []string{"I'm Eva Stone", "[phone]", "[email]", "[address]", "checkout: phone"} {
		if !strings.Contains(out, kept) {
			t.Errorf("log lacks %q:\n%s", kept, out)
		}
	}
}
