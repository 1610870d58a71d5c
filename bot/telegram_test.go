package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"shopbot/adapters/telegram/telegramtest"
	"shopbot/bot/internal/servetest"
	"shopbot/catalog/catalogtest"
)

func telegramEnv(t *testing.T, srv *telegramtest.Server, extra map[string]string) map[string]string {
	vars := map[string]string{
		"DATABASE_URL":       catalogtest.SQLiteSeededURL(t),
		"TELEGRAM_BOT_TOKEN": servetest.TelegramToken,
		"TELEGRAM_API_URL":   srv.URL,
	}
	for k, v := range extra {
		vars[k] = v
	}
	return vars
}

// TestTelegramThroughServe: serve runs the bot by long polling once the
// shop is ready, answers commands and exports the adapter's metrics.
func TestTelegramThroughServe(t *testing.T) {
	srv := telegramtest.NewServer(t, servetest.TelegramToken)
	s := startServer(t, telegramEnv(t, srv, nil))
	s.waitReady(t)
	if !strings.Contains(s.stdout.String(), "telegram   on (long polling)") {
		t.Errorf("startup output:\n%s", s.stdout)
	}
	srv.Push(telegramtest.Text(telegramtest.User(77, "Zed"), "/cart"))
	srv.Wait(t, 15*time.Second, "the cart", func(calls []telegramtest.Call) bool {
		for _, c := range calls {
			if c.Method == "sendMessage" && c.Params["chat_id"] == "77" {
				return true
			}
		}
		return false
	})
	// The metric is counted right after the call the fake recorded.
	deadline := time.Now().Add(5 * time.Second)
	for _, want := range []string{`shopbot_telegram_updates_total{type="command"} 1`, `shopbot_telegram_sends_total{method="sendMessage",outcome="ok"}`} {
		for {
			if _, metrics := s.get(t, "/metrics"); strings.Contains(metrics, want) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("/metrics lacks %s", want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	s.stop(t)
}

// TestTelegramWebhookThroughServe: in webhook mode serve registers the
// webhook and serves POST /telegram/webhook, refusing a wrong secret.
func TestTelegramWebhookThroughServe(t *testing.T) {
	srv := telegramtest.NewServer(t, servetest.TelegramToken)
	s := startServer(t, telegramEnv(t, srv, map[string]string{
		"TELEGRAM_WEBHOOK_URL": "https://shop.example.com/telegram/webhook", "TELEGRAM_WEBHOOK_SECRET": "serve-secret",
	}))
	s.waitReady(t)
	hook := srv.WaitCalls(t, "setWebhook", 1)[0]
	if hook.Params["secret_token"] != "serve-secret" {
		t.Errorf("setWebhook = %v", hook.Params)
	}
	body := string(telegramtest.JSON(telegramtest.Text(telegramtest.User(78, "Yo"), "/cart")))
	post := func(secret string) int {
		req, _ := http.NewRequest(http.MethodPost, s.base+"/telegram/webhook", strings.NewReader(strings.Replace(body, `"update_id":0`, `"update_id":9001`, 1)))
		req.Header.Set("Content-Type", "application/json")
		if secret != "" {
			req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post("wrong"); code != http.StatusUnauthorized {
		t.Errorf("wrong secret: %d", code)
	}
	if code := post("serve-secret"); code != http.StatusOK {
		t.Fatalf("right secret: %d", code)
	}
	srv.Wait(t, 15*time.Second, "the reply", func(calls []telegramtest.Call) bool {
		for _, c := range calls {
			if c.Method == "sendMessage" && c.Params["chat_id"] == "78" {
				return true
			}
		}
		return false
	})
	if !strings.Contains(s.stdout.String(), "telegram   on (webhook https://shop.example.com/telegram/webhook)") {
		t.Errorf("startup output:\n%s", s.stdout)
	}
}
