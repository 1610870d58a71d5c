package processtest

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"shopbot/adapters/telegram/telegramtest"
	"shopbot/bot/internal/servetest"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine/llmtest"
)

// startProcessWith starts one `shopbot serve` child process with vars
// over the test's environment, and waits until it is ready.
func startProcessWith(t *testing.T, vars map[string]string) *process {
	t.Helper()
	env := os.Environ()
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	env = append(env, "HTTP_ADDR=127.0.0.1:0")
	p := launchProcess(t, t.TempDir(), env)
	p.waitListening(t)
	p.waitPrinted(t, readyRE, time.Minute)
	return p
}

// kill ends the process with SIGKILL, as the kernel's OOM killer or a
// lost node would: no shutdown, no release of anything.
func (p *process) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.exited
	p.exited <- nil // for stop at cleanup: the kill was the test's
}

// takeOverVars are the settings of the replicas in the kill test: webhook
// mode, the scripted model, and a 2 s lease renewed every 300 ms.
func takeOverVars(dbURL string, tg *telegramtest.Server, model *llmtest.Server) map[string]string {
	return map[string]string{
		"DATABASE_URL": dbURL, "ADMIN_PASSWORD": "replicas cover each other",
		"TELEGRAM_BOT_TOKEN": servetest.TelegramToken, "TELEGRAM_API_URL": tg.URL,
		"TELEGRAM_WEBHOOK_URL": "https://shop.example.com/telegram/webhook", "TELEGRAM_WEBHOOK_SECRET": "cover-secret",
		"OPENAI_BASE_URL": model.URL, "OPENAI_API_KEY": "test", "RATE_LIMIT_TURNS": "1000",
		"INBOX_LEASE": "2s", "INBOX_LEASE_RENEW": "300ms", "INBOX_SWEEP": "200ms",
	}
}

// TestProcessReplicaTakesOverKilledTurnPostgres: two replicas on one
// Postgres, Telegram in webhook mode. Replica A acknowledges an update
// ("add the stapler"); its turn adds the item, starts its answer (which
// posts the cart message) and stalls on the model; A is killed with
// SIGKILL. Replica B, running all
// along, takes the update over once A's lease (2 s) runs out — no restart
// — and answers it exactly once: the stapler is in the cart once, the
// shopper sees one cart message (B's run edits the one A posted) and one
// answer, and the update is marked handled. SHOPBOT_TAKEOVER_TRIALS runs
// the trial more times.
func TestProcessReplicaTakesOverKilledTurnPostgres(t *testing.T) {
	t.Parallel()
	trials := 1
	if n, err := fmt.Sscan(os.Getenv("SHOPBOT_TAKEOVER_TRIALS"), &trials); n == 0 || err != nil {
		trials = 1
	}
	for i := range trials {
		t.Run(fmt.Sprint("trial ", i+1), takeOverTrial)
	}
}

func takeOverTrial(t *testing.T) {
	const user, sku = 901, "OFF-STA-005"
	dbURL := catalogtest.NewPostgresDatabase(t)
	tg := telegramtest.NewServer(t, servetest.TelegramToken)
	add := llmtest.ToolCall{Name: "add_to_cart", Arguments: `{"sku":"` + sku + `","quantity":1}`}
	model := llmtest.NewServer(t,
		llmtest.CallTools(add), // A: the add
		// A: starts its answer (the cart shows once words start), then
		// stalls mid-stream until it dies.
		llmtest.Step{Text: "Adding it", Hang: true},
		llmtest.CallTools(add),               // B: the turn again: the add is in the journal
		llmtest.Reply("Added to your cart."), // B: the answer
	)
	vars := takeOverVars(dbURL, tg, model)
	a, b := startProcessWith(t, vars), startProcessWith(t, vars)

	u := telegramtest.Text(telegramtest.User(user, "Kim"), "add the stapler")
	u.ID = 77001
	if code := postUpdate(t, a.base, "cover-secret", telegramtest.JSON(u)); code != http.StatusOK {
		t.Fatalf("replica A answered the webhook %d", code)
	}
	chat := fmt.Sprint(user)
	tg.Wait(t, 30*time.Second, "A's cart message", func(calls []telegramtest.Call) bool { return len(cartPosts(calls, chat)) == 1 })
	waitModelCalls(t, model, 2)
	// A kill between Telegram's answer to the post and A recording the
	// message id would leave a message nobody knows of: B could only post
	// another. The test kills A once the message is on record.
	waitCartRemembered(t, dbURL, chat)
	a.kill(t)
	killed := time.Now()

	tg.Wait(t, 30*time.Second, "B's answer", func(calls []telegramtest.Call) bool {
		return len(answers(calls, chat, "Added to your cart.")) > 0
	})
	took := time.Since(killed)
	if took > 30*time.Second {
		t.Errorf("answered %s after the kill, want within 30 s", took)
	}
	t.Logf("answered %s after the kill (lease 2 s)", took.Round(10*time.Millisecond))
	waitHandledInbox(t, dbURL, "77001")
	calls := tg.Calls()
	if n := len(cartPosts(calls, chat)); n != 1 {
		t.Errorf("%d cart messages posted, want 1:\n%s", n, telegramtest.Dump(calls))
	}
	if n := len(answers(calls, chat, "Added to your cart.")); n != 1 {
		t.Errorf("the answer sent %d times, want 1", n)
	}
	if n := model.Calls(); n != 4 {
		t.Errorf("%d model calls, want 4 (2 on A, 2 on B)", n)
	}
	if n := unitsInCart(t, dbURL, chat); n != 1 {
		t.Errorf("%d units in the cart, want 1", n)
	}
	if !strings.Contains(b.stderr.String(), "inbox updates taken over") {
		t.Errorf("B did not say it took the update over; stderr:\n%s", b.stderr)
	}
}

// postUpdate posts a webhook update to a replica and returns the status.
func postUpdate(t *testing.T, base, secret string, body []byte) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"/telegram/webhook", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// cartPosts are the new messages to chat that show the cart.
func cartPosts(calls []telegramtest.Call, chat string) []telegramtest.Call {
	var out []telegramtest.Call
	for _, c := range calls {
		if c.Method == "sendMessage" && c.Params["chat_id"] == chat && strings.Contains(c.Text(), "Your cart") {
			out = append(out, c)
		}
	}
	return out
}

// answers are the messages to chat holding text.
func answers(calls []telegramtest.Call, chat, text string) []telegramtest.Call {
	var out []telegramtest.Call
	for _, c := range calls {
		if (c.Method == "sendMessage" || c.Method == "editMessageText") && c.Params["chat_id"] == chat && strings.Contains(c.Text(), text) {
			out = append(out, c)
		}
	}
	return out
}

// waitModelCalls waits until the scripted model has had n requests.
func waitModelCalls(t *testing.T, model *llmtest.Server, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for model.Calls() < n {
		if time.Now().After(deadline) {
			t.Fatalf("the model had %d requests, want %d", model.Calls(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitHandledInbox waits until the Telegram update key is marked handled.
func waitHandledInbox(t *testing.T, dbURL, key string) {
	t.Helper()
	db := servetest.OpenDB(t, dbURL)
	deadline := time.Now().Add(15 * time.Second)
	for {
		n, err := db.NewSelect().Table("inbox").Where("source = 'telegram'").Where("key = ?", key).
			Where("handled_at IS NOT NULL").Count(context.Background())
		if err == nil && n == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("update %s not marked handled (%v)", key, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitCartRemembered waits until the chat's cart message is recorded with
// the turn that posted it.
func waitCartRemembered(t *testing.T, dbURL, chat string) {
	t.Helper()
	db := servetest.OpenDB(t, dbURL)
	deadline := time.Now().Add(15 * time.Second)
	for {
		n, err := db.NewSelect().Table("cart_messages").Where("turn <> ''").Count(context.Background())
		if err == nil && n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("chat %s: no cart message on record (%v)", chat, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// unitsInCart counts the units in the Telegram user's cart.
func unitsInCart(t *testing.T, dbURL, user string) int {
	t.Helper()
	ctx := context.Background()
	db := servetest.OpenDB(t, dbURL)
	c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: "telegram", PlatformUserID: user})
	if err != nil {
		t.Fatal(err)
	}
	cart, err := catalog.GetCart(ctx, db, catalog.PersonalCart(c.ID))
	if err != nil {
		t.Fatal(err)
	}
	return cart.Count()
}
