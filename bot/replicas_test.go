package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
)

// startReplicas releases n `shopbot serve` on one database at the same
// moment (a closed channel, not a sleep) and waits until all are ready.
func startReplicas(t *testing.T, n int, vars map[string]string) []*server {
	t.Helper()
	gate := make(chan struct{})
	replicas := make([]*server, n)
	for i := range replicas {
		replicas[i] = launchServer(t, vars, gate)
	}
	close(gate)
	for _, s := range replicas {
		s.waitListening(t)
		// They start one after another (the lock), each hashing or
		// checking the admin password: slow under -race on a busy machine.
		s.waitReadyWithin(t, time.Minute)
	}
	for i, s := range replicas {
		select {
		case err := <-s.done:
			s.cancel = nil
			t.Fatalf("replica %d exited: %v\nstderr: %s", i, err, s.stderr)
		default:
		}
	}
	return replicas
}

// countOutputs counts the replicas whose startup output contains want.
func countOutputs(replicas []*server, want string) int {
	n := 0
	for _, s := range replicas {
		if strings.Contains(s.stdout.String(), want) {
			n++
		}
	}
	return n
}

func openTestDB(t *testing.T, url string) *bun.DB {
	t.Helper()
	db, _, err := catalog.OpenDB(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// checkLoadedOnce: the database holds one demo catalog (products, reviews)
// and one admin user.
func checkLoadedOnce(t *testing.T, db *bun.DB) {
	t.Helper()
	ctx := context.Background()
	ps := must(demo.Products())
	var wantReviews int64
	for _, p := range ps {
		wantReviews += int64(len(p.Reviews))
	}
	products := must(catalog.CountProducts(ctx, db))
	reviews := must(db.NewSelect().Table("reviews").Count(ctx))
	admins := must(db.NewSelect().Table("staff_users").Where("username = ?", "admin").Count(ctx))
	if products != len(ps) || reviews != wantReviews || admins != 1 {
		t.Errorf("%d products, %d reviews, %d admin users; want %d, %d, 1", products, reviews, admins, len(ps), wantReviews)
	}
}

// checkStartOutputs: exactly one replica loaded the demo and (without
// ADMIN_PASSWORD) generated the password; the others say they found them.
func checkStartOutputs(t *testing.T, replicas []*server, password string) {
	t.Helper()
	if n := countOutputs(replicas, "(demo catalog loaded)"); n != 1 {
		t.Errorf("%d replicas say they loaded the demo catalog, want 1", n)
	}
	if n := countOutputs(replicas, "Ready in"); n != len(replicas) {
		t.Errorf("%d of %d replicas printed Ready", n, len(replicas))
	}
	if password != "" {
		if n := countOutputs(replicas, "password from ADMIN_PASSWORD"); n != len(replicas) {
			t.Errorf("%d of %d replicas say the password is ADMIN_PASSWORD's", n, len(replicas))
		}
		return
	}
	if n := countOutputs(replicas, "(generated;"); n != 1 {
		t.Errorf("%d replicas generated an admin password, want 1", n)
	}
	if n := countOutputs(replicas, "password printed at first start"); n != len(replicas)-1 {
		t.Errorf("%d replicas say the password was printed at first start, want %d", n, len(replicas)-1)
	}
}

// generatedPassword is the password the one generating replica printed.
func generatedPassword(t *testing.T, replicas []*server) string {
	t.Helper()
	for _, s := range replicas {
		if m := generatedRE.FindStringSubmatch(s.stdout.String()); m != nil {
			return m[1]
		}
	}
	t.Fatal("no replica printed a generated password")
	return ""
}

// TestReplicasStartTogetherPostgres: three replicas started at the same
// moment on one empty Postgres database load the demo catalog once, create
// one admin user, and all become ready; with and without ADMIN_PASSWORD.
// Then the turns of one chat sent to all three run one at a time.
func TestReplicasStartTogetherPostgres(t *testing.T) {
	for _, tc := range []struct {
		name, password string
		chatOrder      bool // also check the order of one chat's turns
	}{
		{"generated password", "", true},
		{"ADMIN_PASSWORD", "replicas share this password", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dbURL := catalogtest.NewPostgresDatabase(t)
			vars := map[string]string{"DATABASE_URL": dbURL, "RATE_LIMIT_TURNS": "1000"}
			if tc.password != "" {
				vars["ADMIN_PASSWORD"] = tc.password
			}
			replicas := startReplicas(t, 3, vars)
			db := openTestDB(t, dbURL)
			checkLoadedOnce(t, db)
			checkStartOutputs(t, replicas, tc.password)
			password := tc.password
			if password == "" {
				password = generatedPassword(t, replicas)
			}
			signIn(t, replicas[2].base, "admin", password) // one database: any replica will do
			if tc.chatOrder {
				checkChatOrder(t, db, replicas)
			}
		})
	}
}

// TestReplicasStartTogetherSQLite: two replicas on one SQLite file (two
// connection pools, so SQLite's file lock arbitrates as between processes).
func TestReplicasStartTogetherSQLite(t *testing.T) {
	dbURL := "sqlite:" + filepath.Join(t.TempDir(), "shop.db")
	replicas := startReplicas(t, 2, map[string]string{"DATABASE_URL": dbURL})
	checkLoadedOnce(t, openTestDB(t, dbURL))
	checkStartOutputs(t, replicas, "")
	signIn(t, replicas[1].base, "admin", generatedPassword(t, replicas))
}

// checkChatOrder sends 30 "add to cart" presses of one web chat to the
// replicas at once. Each turn holds the chat's Postgres advisory lock, so
// they run one at a time: stored in order, each turn's four messages
// together (press, tool call, cart after the add, confirmation), and the
// carts they show count up 1, 2, … 30 — two turns running together would
// show the same count or store them out of order.
func checkChatOrder(t *testing.T, db *bun.DB, replicas []*server) {
	t.Helper()
	// A product without variants and with stock for every turn.
	const turns, session, sku = 30, "replica-order-0123456789", "OFF-STA-005"
	body := `{"session":"` + session + `","action":"add|` + sku + `|1"}`
	gate := make(chan struct{})
	var wg sync.WaitGroup
	for i := range turns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			resp, err := http.Post(replicas[i%len(replicas)].base+"/api/chat", "application/json", strings.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("turn %d: status %d", i, resp.StatusCode)
			}
		}()
	}
	close(gate)
	wg.Wait()

	var msgs []catalog.Message
	err := db.NewSelect().Model(&msgs).
		Where("conversation_id = (SELECT id FROM conversations WHERE channel = ? AND chat_id = ?)", "web", session).
		Order("id").Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 4*turns {
		t.Fatalf("%d messages stored, want %d", len(msgs), 4*turns)
	}
	for i := range turns {
		checkTurnMessages(t, i, msgs[4*i:4*i+4])
	}
}

// checkTurnMessages: turn i's messages are press, tool call, tool result
// with i+1 units in the cart, confirmation.
func checkTurnMessages(t *testing.T, i int, m []catalog.Message) {
	t.Helper()
	roles := fmt.Sprintf("%s %s %s %s", m[0].Role, m[1].Role, m[2].Role, m[3].Role)
	if roles != "user assistant tool assistant" || len(m[1].ToolCalls) != 1 {
		t.Fatalf("turn %d stored as %s with %d tool calls: turns interleaved", i+1, roles, len(m[1].ToolCalls))
	}
	var res struct{ Cart struct{ Units int } }
	if err := json.Unmarshal([]byte(m[2].Content), &res); err != nil || res.Cart.Units != i+1 {
		t.Fatalf("turn %d shows %d units in the cart (%v): %s", i+1, res.Cart.Units, err, m[2].Content)
	}
}
