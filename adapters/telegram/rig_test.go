package telegram

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/adapters/inbox"
	"shopbot/adapters/telegram/telegramtest"
	"shopbot/catalog"
	"shopbot/catalog/demo"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine"
)

const token = "123456:TEST-token"

// rig is the adapter running against the fake Bot API with the real
// engine (offline planner: no model) on a real database.
type rig struct {
	t   testing.TB
	db  *bun.DB
	srv *telegramtest.Server
	a   *Adapter
	reg *prometheus.Registry
}

// Test products: one with a photo and a hostile name.
const (
	mugSKU   = "TST-MUG-001"
	mugTitle = `<b>&Co</b> "Zanzibar" Mug <script>`
)

func seed(t testing.TB, db *bun.DB) {
	t.Helper()
	ctx := context.Background()
	if _, err := catalog.GetProduct(ctx, db, mugSKU); err == nil {
		return // seeded already: a second rig on one database
	}
	// A copy of the demo catalog (catalogtest.SQLiteDemo, EachDemo) gets
	// only the test products.
	if n, err := catalog.CountProducts(ctx, db); err != nil {
		t.Fatal(err)
	} else if n == 0 {
		if _, err := demo.Load(ctx, db); err != nil {
			t.Fatal(err)
		}
	}
	_, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{{
		SKU: mugSKU, Title: mugTitle, Description: "A *stoneware* mug for <tea> & coffee, 350 ml.",
		Brand: "A&B <Pottery>", CategoryPath: []string{"Kitchen", "Mugs"}, Price: 1250, Currency: "USD", Stock: 40,
		ImageURLs: []string{"https://img.example.com/mug.jpg"},
	}})
	if err != nil {
		t.Fatal(err)
	}
}

// logger writes the adapter's and engine's logs to the test log.
func logger(t testing.TB) *slog.Logger {
	switch t.(type) {
	case *testing.B, *testing.F: // a fuzz target may not log through f
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func newEngine(t testing.TB, db *bun.DB) *engine.Engine {
	t.Helper()
	eng, err := engine.New(engine.Config{DB: db, Search: searchtest.NewDatabase(db), Logger: logger(t), RateLimit: 10_000})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// newRig starts the adapter; mod adjusts its config. Fast pacing unless
// the test sets its own.
func newRig(t testing.TB, db *bun.DB, mod func(*Config)) *rig {
	t.Helper()
	seed(t, db)
	srv := telegramtest.NewServer(t, token)
	reg := prometheus.NewRegistry()
	eng := newEngine(t, db)
	cfg := Config{
		Token: token, APIURL: srv.URL, ShopName: "Test <Shop> & Co", DB: db, Engine: eng, Shop: eng,
		Logger: logger(t), Registry: reg, PollTimeout: time.Second,
		PrivateEvery: time.Millisecond, GroupEvery: time.Millisecond, Burst: 100,
	}
	if mod != nil {
		mod(&cfg)
	}
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	r := &rig{t: t, db: db, srv: srv, a: a, reg: reg}
	r.waitStarted()
	return r
}

// sent returns the calls that posted or changed messages in chat.
func (r *rig) sent(chat string) []telegramtest.Call {
	var out []telegramtest.Call
	for _, c := range r.srv.Calls("sendMessage", "sendPhoto", "editMessageText", "sendInvoice") {
		if c.Params["chat_id"] == chat {
			out = append(out, c)
		}
	}
	return out
}

// waitSent waits for a call to chat satisfying cond and returns it.
func (r *rig) waitSent(chat, what string, cond func(c telegramtest.Call) bool) telegramtest.Call {
	r.t.Helper()
	var found telegramtest.Call
	r.srv.Wait(r.t, 15*time.Second, what, func(calls []telegramtest.Call) bool {
		for _, c := range calls {
			if c.Params["chat_id"] == chat && c.Status == 200 && cond(c) {
				found = c
				return true
			}
		}
		return false
	})
	return found
}

// waitText waits for a message to chat containing s.
func (r *rig) waitText(chat, s string) telegramtest.Call {
	r.t.Helper()
	return r.waitSent(chat, "a message with "+s, func(c telegramtest.Call) bool {
		return c.Method != "editMessageText" && strings.Contains(c.Text(), s)
	})
}

// waitHandled waits until the inbox has handled update id.
func (r *rig) waitHandled(id int64) {
	r.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if handled, err := isHandled(r.db, id); err == nil && handled {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	r.t.Fatalf("update %d not handled; calls:\n%s", id, telegramtest.Dump(r.srv.Calls()))
}

const secret = "s3cret-token_1"

// webhookMode configures the rig for webhook delivery.
func webhookMode(c *Config) {
	c.WebhookURL = "https://shop.example.com/telegram/webhook"
	c.WebhookSecret = secret
}

// post delivers an update to the webhook with the given secret header
// ("" leaves it out) and returns the status.
func (r *rig) post(body []byte, secretHeader string) int {
	req := httptest.NewRequest(http.MethodPost, "/telegram/webhook", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if secretHeader != "" {
		req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secretHeader)
	}
	w := httptest.NewRecorder()
	r.a.ServeHTTP(w, req)
	return w.Code
}

// deliver posts an update with the right secret, numbering it if needed.
func (r *rig) deliver(u models.Update) int64 {
	r.t.Helper()
	if u.ID == 0 {
		u.ID = r.srv.NextID()
	}
	if code := r.post(telegramtest.JSON(u), secret); code != http.StatusOK {
		r.t.Fatalf("webhook answered %d", code)
	}
	return u.ID
}

func (r *rig) inboxCount() int {
	n, err := r.db.NewSelect().Table("inbox").Where("source = 'telegram'").Count(context.Background())
	if err != nil {
		r.t.Fatal(err)
	}
	return int(n)
}

// isHandled reports whether update id is in the inbox and handled.
func isHandled(db *bun.DB, id int64) (bool, error) {
	var handled bool
	err := db.NewRaw("SELECT handled_at IS NOT NULL FROM inbox WHERE source = 'telegram' AND key = ?",
		strconv.FormatInt(id, 10)).Scan(context.Background(), &handled)
	return handled, err
}

// record puts u in the inbox unhandled, as an adapter that acknowledged
// it and then stopped would have left it.
func record(t testing.TB, db *bun.DB, u models.Update) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := inbox.New(ctx, db, "telegram")
	if _, err := in.Record(ctx, inbox.Update{Key: strconv.FormatInt(u.ID, 10), Kind: kindUpdate, Payload: string(telegramtest.JSON(u))}, nil); err != nil {
		t.Fatal(err)
	}
}

func testingEnv(name string) string { return os.Getenv(name) }

// waitStarted waits until Run has resumed the inbox and takes updates.
func (r *rig) waitStarted() {
	r.t.Helper()
	select {
	case <-r.a.started:
	case <-time.After(10 * time.Second):
		r.t.Fatal("adapter did not start")
	}
}
