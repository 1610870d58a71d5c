package telegram

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/adapters/telegram/telegramtest"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine"
)

const sorry = "something went wrong"

// TestBadBytesInNames: a shopper whose first_name holds a NUL (and a
// username with control characters, a language code with junk) gets
// answers, and so do their later turns — on Postgres, which refuses NUL
// in text, the customer refresh used to fail on every turn.
func TestBadBytesInNames(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		r := newRig(t, db, nil)
		u := telegramtest.User(31, "Ann\x00ie\x07")
		u.Username, u.LanguageCode = "ann\x00", "en\x00\x1b"
		for i, text := range []string{"sneakers", "/cart", "hello"} {
			id := r.srv.Push(telegramtest.Text(u, text))
			r.waitHandled(id)
			sent := r.sent("31")
			if len(sent) == 0 {
				t.Fatalf("turn %d (%q): no answer", i, text)
			}
			for _, c := range sent {
				if strings.Contains(c.Text(), sorry) {
					t.Fatalf("turn %d (%q) answered %q", i, text, c.Text())
				}
			}
		}
		c, err := catalog.ResolveCustomer(context.Background(), db, catalog.Identity{
			Channel: "telegram", PlatformUserID: "31", DisplayName: "Annie", Username: "ann", Locale: "en"})
		if err != nil || c.DisplayName != "Annie" {
			t.Errorf("customer %+v, %v", c, err)
		}
	})
}

// TestWebhookInvalidUTF8: an update whose raw body holds invalid UTF-8
// is recorded (as U+FFFD, which is what decoding gives anyway) and
// answered, on Postgres too; one such update does not fail the others.
func TestWebhookInvalidUTF8(t *testing.T) {
	db, _ := catalogtest.PostgresDemo(t)
	r := newRig(t, db, webhookMode)
	r.srv.WaitCalls(t, "setWebhook", 1)
	// Raw bytes \xff and \xfe (invalid UTF-8), and NUL escaped as JSON allows.
	body := fmt.Sprintf(`{"update_id":%d,"message":{"message_id":1,"date":1,"chat":{"id":32,"type":"private"},`+
		`"from":{"id":32,"is_bot":false,"first_name":"B`+"\xff"+`ob\u0000","language_code":"e`+"\xfe"+`n"},"text":"sne`+"\xff"+`akers\u0000"}}`, r.srv.NextID())
	if code := r.post([]byte(body), secret); code != http.StatusOK {
		t.Fatalf("webhook answered %d", code)
	}
	r.waitText("32", "")
	for _, c := range r.sent("32") {
		if strings.Contains(c.Text(), sorry) {
			t.Errorf("answered %q", c.Text())
		}
	}
}

// TestWebhookBodyTooLarge: a body over 1 MB gets a 413 and records nothing.
func TestWebhookBodyTooLarge(t *testing.T) {
	r := newRig(t, catalogtest.SQLiteDemo(t), webhookMode)
	r.srv.WaitCalls(t, "setWebhook", 1)
	body := `{"update_id":1,"message":{"text":"` + strings.Repeat("a", 1<<20) + `"}}`
	req := httptest.NewRequest(http.MethodPost, "/telegram/webhook", bytes.NewReader([]byte(body)))
	req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
	w := httptest.NewRecorder()
	r.a.ServeHTTP(w, req)
	if w.Code != http.StatusRequestEntityTooLarge || r.inboxCount() != 0 {
		t.Errorf("%d %q, %d recorded", w.Code, w.Body, r.inboxCount())
	}
}

// FuzzTelegramWebhook: an authenticated webhook body with any bytes in
// the sender's names, language and text (raw or as JSON escapes) is never
// answered 5xx, on SQLite and Postgres, and no NUL is stored.
func FuzzTelegramWebhook(f *testing.F) {
	f.Add("Ann", "en", "sneakers")
	f.Add(`Ann\u0000`, `en\u0000`, `hi\u0000`)
	f.Add("B\xffob", "e\xfen", "sne\xffakers")
	f.Add("Ann\x00", "en", "raw NUL")
	f.Add(`\u0007\u001b`, `ru","x":"`, `/start \u0000`)
	lite := newRig(f, catalogtest.SQLiteDemo(f), webhookMode)
	pg, _ := catalogtest.PostgresDemo(f)
	rigs := []*rig{lite, newRig(f, pg, webhookMode)}
	for _, r := range rigs {
		r.srv.WaitCalls(f, "setWebhook", 1)
	}
	f.Fuzz(func(t *testing.T, name, lang, text string) {
		for _, r := range rigs {
			body := fmt.Sprintf(`{"update_id":%d,"message":{"message_id":1,"date":1,"chat":{"id":41,"type":"private"},`+
				`"from":{"id":41,"is_bot":false,"first_name":"%s","language_code":"%s"},"text":"%s"}}`, r.srv.NextID(), name, lang, text)
			if code := r.post([]byte(body), secret); code >= 500 {
				t.Fatalf("%q: %d", body, code)
			}
		}
		var n int
		err := lite.db.NewRaw(`SELECT (SELECT count(*) FROM inbox WHERE instr(payload, char(0)) > 0)
			+ (SELECT count(*) FROM customers WHERE instr(display_name || username || locale, char(0)) > 0)`).Scan(context.Background(), &n)
		if err != nil || n != 0 {
			t.Fatalf("NUL stored in %d rows (%v)", n, err)
		}
	})
}

// downEngine is an engine whose database is down: it says sorry once
// through the sink and returns ErrUnavailable, as engine.Handle does.
type downEngine struct{}

func (downEngine) Handle(ctx context.Context, t engine.Turn, sink engine.Sink) error {
	_ = sink.Send(ctx, engine.Event{Kind: engine.EventError, Text: engine.PoliteMessage(nil, t.Locale)})
	return fmt.Errorf("engine: open session: %w", engine.ErrUnavailable)
}

// TestPoliteOnceWhenDatabaseDown: a turn that fails because the database
// is down leaves the shopper exactly one polite message.
func TestPoliteOnceWhenDatabaseDown(t *testing.T) {
	r := newRig(t, catalogtest.SQLiteDemo(t), func(c *Config) { c.Engine = downEngine{} })
	id := r.srv.Push(telegramtest.Text(telegramtest.User(51, "Dee"), "sneakers"))
	r.waitHandled(id)
	sent := r.sent("51")
	if len(sent) != 1 || !strings.Contains(sent[0].Text(), sorry) {
		t.Errorf("sent %s", telegramtest.Dump(sent))
	}
}

// TestWebhookDatabaseDown: an update that cannot be recorded because the
// database is down gets a 503 with Retry-After (Telegram redelivers).
func TestWebhookDatabaseDown(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	r := newRig(t, db, webhookMode)
	r.srv.WaitCalls(t, "setWebhook", 1)
	db.Close()
	u := telegramtest.Text(telegramtest.User(52, "Eve"), "hi")
	u.ID = r.srv.NextID()
	req := httptest.NewRequest(http.MethodPost, "/telegram/webhook", bytes.NewReader(telegramtest.JSON(u)))
	req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
	w := httptest.NewRecorder()
	r.a.ServeHTTP(w, req)
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
		t.Errorf("%d %v %q", w.Code, w.Header(), w.Body)
	}
}
