package loadtest_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine"
	"shopbot/engine/loadtest"
	"shopbot/engine/openai"
)

func TestRunAgainstScriptedModel(t *testing.T) {
	db := catalogtest.SQLite(t)
	if _, err := demo.Load(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	model, err := loadtest.StartModel(0, `{"query":"running shoes","max_price":150}`)
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	eng, err := engine.New(engine.Config{DB: db, Search: searchtest.NewDatabase(db), RateLimit: 1 << 20,
		Model: loadtest.TimedModel{Model: openai.New(openai.Config{BaseURL: model.URL, Model: "scripted", RequestTimeout: 10 * time.Second})}})
	if err != nil {
		t.Fatal(err)
	}
	var progress atomic.Int64
	rep := loadtest.Run(context.Background(), eng, loadtest.Options{Conversations: 4, Turns: 3, Text: "running shoes", Ramp: 40 * time.Millisecond, Progress: func(int64) { progress.Add(1) }})
	if rep.Turns != 12 || rep.Errors != 0 || progress.Load() != 12 {
		t.Fatalf("report %+v, progress %d", rep, progress.Load())
	}
	if model.Calls() != 24 {
		t.Errorf("%d model calls, want 2 per turn", model.Calls())
	}
	// The last of 4 conversations starts 3/4 into the ramp.
	if rep.Elapsed < 30*time.Millisecond {
		t.Errorf("run took %s: the ramp was not applied", rep.Elapsed)
	}
	if rep.EngineP50 <= 0 || rep.EngineP50 > rep.TotalP50 || rep.TurnsPerSec <= 0 {
		t.Errorf("report %+v", rep)
	}
}

// TestScriptedModelRefusesBadRequests: a body that is not a chat request
// (no messages array, an empty one, a last message without a role, not
// JSON at all) gets a 400 in the API's error shape, not a completion.
func TestScriptedModelRefusesBadRequests(t *testing.T) {
	model, err := loadtest.StartModel(0, `{}`)
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	for _, body := range []string{``, `not json`, `{"model":"m"}`, `{"messages":{"role":"user"}}`, `{"messages":[]}`, `{"messages":[{"content":"hi"}]}`} {
		res, err := http.Post(model.URL+"/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		msg, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(msg), "invalid_request_error") {
			t.Errorf("%q: %d %s", body, res.StatusCode, msg)
		}
	}
	res, err := http.Post(model.URL+"/chat/completions", "application/json", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(msg), `"model":"m"`) || !strings.Contains(string(msg), "search_products") {
		t.Errorf("a good request: %d %s", res.StatusCode, msg)
	}
}
