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

	"shopbot/bot/internal/servetest"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
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

// outputs are the replicas' startup outputs.
func outputs(replicas []*server) []string {
	outs := make([]string, len(replicas))
	for i, s := range replicas {
		outs[i] = s.stdout.String()
	}
	return outs
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
			db := servetest.OpenDB(t, dbURL)
			servetest.CheckLoadedOnce(t, db)
			servetest.CheckStartOutputs(t, outputs(replicas), tc.password)
			password := tc.password
			if password == "" {
				password = servetest.GeneratedPassword(t, outputs(replicas))
			}
			servetest.SignIn(t, replicas[2].base, "admin", password) // one database: any replica will do
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
	servetest.CheckLoadedOnce(t, servetest.OpenDB(t, dbURL))
	servetest.CheckStartOutputs(t, outputs(replicas), "")
	servetest.SignIn(t, replicas[1].base, "admin", servetest.GeneratedPassword(t, outputs(replicas)))
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
