package ucp_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine/agentdoor"
)

// TestCheckoutSessionAcrossReplicas: two servers (replicas) on one
// database share the sessions and the Idempotency-Key replies, as the
// product's "nothing lost, nothing twice" asks: a session created on
// one is read, updated and completed on the other; a key replayed on the
// other replica gets the first response, and with another request 409;
// a restarted server (new process state, same database) still finds the
// session; concurrent completes of one session, spread over both
// replicas, place one order.
func TestCheckoutSessionAcrossReplicas(t *testing.T) {
	s := loadSchemas(t)
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		a, sku := ucpShop(t, dbs[0], &catalog.UCPRecords{DB: dbs[0]})
		b, _ := ucpServer(t, dbs[1], &catalog.UCPRecords{DB: dbs[1]})
		onA, onB := a.URL+"/ucp/v1/checkout-sessions", b.URL+"/ucp/v1/checkout-sessions"
		lines := []any{map[string]any{"item": map[string]any{"id": sku}, "quantity": 1}}
		orders := func() int64 {
			n, err := dbs[0].NewSelect().Model((*catalog.Order)(nil)).Where("channel = ?", agentdoor.Channel).Count(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return n
		}

		// Created on A with a key; the key replayed on B answers A's
		// response and creates nothing more; with another body, 409.
		create := map[string]any{"line_items": lines}
		code, co, raw := do(t, "POST", onA, "create-r1", create)
		valid(t, s.checkout, "create on A", raw)
		if code != http.StatusCreated {
			t.Fatalf("create on A: %d %s", code, raw)
		}
		id, _ := co["id"].(string)
		code2, co2, raw2 := do(t, "POST", onB, "create-r1", create)
		if code2 != code || co2["id"] != id {
			t.Errorf("the key replayed on B: %d %s; want A's response (%s)", code2, raw2, id)
		}
		code, _, raw = do(t, "POST", onB, "create-r1", map[string]any{"line_items": []any{map[string]any{"item": map[string]any{"id": sku}, "quantity": 3}}})
		valid(t, s.errorResponse, "key reuse on B", raw)
		if code != http.StatusConflict {
			t.Errorf("the key with another body on B: %d %s; want 409", code, raw)
		}

		// Read and updated on B.
		code, co, raw = do(t, "GET", onB+"/"+id, "", nil)
		valid(t, s.checkout, "get on B", raw)
		if code != http.StatusOK || co["status"] != "incomplete" {
			t.Fatalf("get on B: %d %s", code, raw)
		}
		upd := map[string]any{"line_items": lines, "buyer": map[string]any{"first_name": "Jane", "last_name": "Doe", "email": "jane@example.com"}, "fulfillment": address}
		code, co, raw = do(t, "PUT", onB+"/"+id, "", upd)
		valid(t, s.checkout, "update on B", raw)
		if code != http.StatusOK || co["status"] != "ready_for_complete" {
			t.Fatalf("update on B: %d %s", code, raw)
		}

		// A restart: a new server with nothing in memory finds it ready.
		c, _ := ucpServer(t, dbs[0], &catalog.UCPRecords{DB: dbs[0]})
		code, co, raw = do(t, "GET", c.URL+"/ucp/v1/checkout-sessions/"+id, "", nil)
		if code != http.StatusOK || co["status"] != "ready_for_complete" {
			t.Fatalf("get after a restart: %d %s", code, raw)
		}

		// Completed on B with a key; replayed on A (and the restarted
		// server): the first response, one order.
		pay := map[string]any{"payment": map[string]any{}}
		code, co, raw = do(t, "POST", onB+"/"+id+"/complete", "complete-r1", pay)
		valid(t, s.checkout, "complete on B", raw)
		if code != http.StatusOK || co["status"] != "completed" {
			t.Fatalf("complete on B: %d %s", code, raw)
		}
		for _, url := range []string{onA, c.URL + "/ucp/v1/checkout-sessions"} {
			code2, co2, raw2 := do(t, "POST", url+"/"+id+"/complete", "complete-r1", pay)
			if code2 != code || co2["status"] != "completed" || co2["id"] != id {
				t.Errorf("complete replayed on %s: %d %s", url, code2, raw2)
			}
		}
		if n := orders(); n != 1 {
			t.Fatalf("%d orders after one complete replayed; want 1", n)
		}

		// Concurrent completes of one ready session on both replicas,
		// without keys: one completes it, the others find it completed.
		code, co, raw = do(t, "POST", onA, "", map[string]any{"line_items": lines, "buyer": upd["buyer"], "fulfillment": address})
		if code != http.StatusCreated || co["status"] != "ready_for_complete" {
			t.Fatalf("create ready: %d %s", code, raw)
		}
		id2, _ := co["id"].(string)
		const racers = 8
		codes := make([]int, racers)
		var wg sync.WaitGroup
		for i := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				base := []string{onA, onB}[i%2]
				codes[i], _, _ = do(t, "POST", base+"/"+id2+"/complete", "", pay)
			}()
		}
		wg.Wait()
		ok, conflicts := 0, 0
		for _, c := range codes {
			switch c {
			case http.StatusOK:
				ok++
			case http.StatusConflict:
				conflicts++
			}
		}
		if ok != 1 || conflicts != racers-1 {
			t.Errorf("concurrent completes: %v; want one 200 and %d 409", codes, racers-1)
		}
		if n := orders(); n != 2 {
			t.Errorf("%d orders after the concurrent completes; want 2 in all", n)
		}
		code, co, raw = do(t, "GET", onB+"/"+id2, "", nil)
		if code != http.StatusOK || co["status"] != "completed" {
			t.Errorf("the raced session: %d %s", code, raw)
		}
	})
}
