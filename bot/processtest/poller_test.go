package processtest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"shopbot/adapters/telegram/telegramtest"
	"shopbot/bot/internal/servetest"
	"shopbot/catalog/catalogtest"
)

// TestProcessOneTelegramPollerPostgres: two replicas on one Postgres in
// long-polling mode. Only the holder of the poller role calls getUpdates
// (the fake Bot API, like Telegram, ends a waiting poll with 409 Conflict
// when a second begins: none is ended so), and it answers a shopper. The
// holder is killed with SIGKILL; the other replica takes the role over
// once the lease (2 s) has run out, well within 30 s, and answers the
// next shopper — still without a conflict.
func TestProcessOneTelegramPollerPostgres(t *testing.T) {
	t.Parallel()
	dbURL := catalogtest.NewPostgresDatabase(t)
	tg := telegramtest.NewServer(t, servetest.TelegramToken)
	vars := map[string]string{
		"DATABASE_URL": dbURL, "ADMIN_PASSWORD": "one poller among replicas",
		"TELEGRAM_BOT_TOKEN": servetest.TelegramToken, "TELEGRAM_API_URL": tg.URL,
		"INBOX_LEASE": "2s", "INBOX_LEASE_RENEW": "300ms", "INBOX_SWEEP": "200ms",
	}
	ps := []*process{startProcessWith(t, vars), startProcessWith(t, vars)}

	holder := waitPoller(t, dbURL, ps, nil)
	other := ps[1-holder]
	tg.Push(telegramtest.Text(telegramtest.User(902, "Ann"), "hello"))
	waitSent(t, tg, "902")

	ps[holder].kill(t)
	killed := time.Now()
	next := waitPoller(t, dbURL, ps, ps[holder])
	if ps[next] != other {
		t.Fatalf("the killed replica still holds the poller role")
	}
	tg.Push(telegramtest.Text(telegramtest.User(903, "Bo"), "hello"))
	waitSent(t, tg, "903")
	took := time.Since(killed)
	if took > 30*time.Second {
		t.Errorf("the second shopper was answered %s after the kill, want within 30 s", took)
	}
	t.Logf("answered %s after the kill (lease 2 s)", took.Round(10*time.Millisecond))
	if n := tg.Conflicts(); n != 0 {
		t.Errorf("%d long polls ended in 409 Conflict: two replicas polled at once", n)
	}
	if !strings.Contains(other.stderr.String(), "role taken") {
		t.Errorf("the survivor did not say it took the poller role; stderr:\n%s", other.stderr)
	}
}

// waitPoller waits until a live replica of ps (not gone) holds the
// poller role and returns its index. Holders are named host-pid-random.
func waitPoller(t *testing.T, dbURL string, ps []*process, gone *process) int {
	t.Helper()
	db := servetest.OpenDB(t, dbURL)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var holders []string
		err := db.NewSelect().Table("inbox").Column("claimed_by").Where("source = 'role:telegram-poll'").
			Where("lease_until > ?", time.Now().UTC()).Scan(context.Background(), &holders)
		for i, p := range ps {
			if p != gone && len(holders) == 1 && strings.Contains(holders[0], fmt.Sprintf("-%d-", p.cmd.Process.Pid)) {
				return i
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no live replica holds the poller role (%v, holders %v)", err, holders)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitSent waits until the bot has sent a message to chat.
func waitSent(t *testing.T, tg *telegramtest.Server, chat string) {
	t.Helper()
	tg.Wait(t, 30*time.Second, "a message to "+chat, func(calls []telegramtest.Call) bool {
		for _, c := range calls {
			if c.Method == "sendMessage" && c.Params["chat_id"] == chat {
				return true
			}
		}
		return false
	})
}
