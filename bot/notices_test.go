package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"shopbot/bot/internal/servetest"
	"shopbot/catalog/catalogtest"
)

// TestNoticeAcrossReplicasPostgres: a web shopper talks to replica A; the
// merchant answers in the panel of replica B, which makes a notice for
// the shopper; B restarts. The shopper, polling A, gets the notice once —
// it waited in the database, not in B's memory.
func TestNoticeAcrossReplicasPostgres(t *testing.T) {
	const session, password = "notice-across-replicas-01", "notices live in the database"
	_, dbURL := catalogtest.PostgresSeeded(t) // what a first start seeds; loading it is not the subject
	vars := map[string]string{"DATABASE_URL": dbURL, "ADMIN_PASSWORD": password}
	rs := startReplicas(t, 2, vars)
	a, b := rs[0], rs[1]

	resp, err := http.Post(a.base+"/api/chat", "application/json", strings.NewReader(`{"session":"`+session+`","message":"hello"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("chat on A: %d", resp.StatusCode)
	}
	var conv int64
	err = servetest.OpenDB(t, dbURL).NewSelect().Table("conversations").Column("id").
		Where("channel = 'web'").Where("chat_id = ?", session).Scan(context.Background(), &conv)
	if err != nil {
		t.Fatal(err)
	}
	const reply = "Your parcel left this morning."
	adminPost(t, b.base, password, "/admin/conversations/"+strconv.FormatInt(conv, 10), "/reply", url.Values{"text": {reply}})

	b.stop(t) // B restarts: whatever it kept in memory is gone
	b2 := launchServer(t, vars, nil)
	b2.waitListening(t)
	b2.waitReadyWithin(t, time.Minute)

	got := pollNotices(t, a.base, session)
	if len(got) != 1 || got[0].Kind != "merchant_reply" || got[0].Text != reply {
		t.Fatalf("A's poll: %+v, want the merchant's reply", got)
	}
	if again := pollNotices(t, b2.base, session); len(again) != 0 {
		t.Errorf("delivered twice: %+v", again)
	}
}

type polledNotice struct{ Type, Kind, Text string }

func pollNotices(t *testing.T, base, session string) []polledNotice {
	t.Helper()
	resp, err := http.Get(base + "/api/chat/notices?session=" + session)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct{ Notices []polledNotice }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("poll: %d, %v", resp.StatusCode, err)
	}
	return out.Notices
}

// adminPost signs in as admin on base, opens page, and posts form (with
// the page's form token) to page+action; the answer must be a page (2xx
// after redirects).
func adminPost(t *testing.T, base, password, page, action string, form url.Values) {
	t.Helper()
	c := servetest.SignIn(t, base, "admin", password)
	form.Set("csrf", servetest.FormToken(t, c, base+page))
	resp, err := c.PostForm(base+page+action, form)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || strings.Contains(string(body), "could not be delivered") {
		t.Fatalf("POST %s%s = %d:\n%s", page, action, resp.StatusCode, body)
	}
}
