package admin_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"shopbot/admin"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// fakeReplayer answers the replay pages with fixed turns. Since reports
// no progress past zero until release is closed, so a test sees the
// batch running; it closes counted (when not nil) once it reported the
// number of turns.
type fakeReplayer struct {
	turns   []admin.ReplayTurn
	release chan struct{}
	counted chan struct{}
	asked   []int64
	err     error // what Since fails with, if not nil
}

func (f *fakeReplayer) Conversation(_ context.Context, id int64) ([]admin.ReplayTurn, error) {
	f.asked = append(f.asked, id)
	return f.turns, nil
}

func (f *fakeReplayer) Since(_ context.Context, _ time.Duration, progress func(done, total int)) ([]admin.ReplayTurn, error) {
	progress(0, len(f.turns))
	if f.counted != nil {
		close(f.counted)
	}
	<-f.release
	progress(len(f.turns), len(f.turns))
	if f.err != nil {
		return nil, f.err
	}
	return f.turns, nil
}

func (f *fakeReplayer) Scenario(_ context.Context, id int64, name string) ([]byte, error) {
	return []byte("- name: " + name + "\n  turns:\n    - say: hello\n"), nil
}

// released is a closed release channel: Since runs straight through.
func released() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

// replayTurns are a changed and an unchanged turn.
var replayTurns = []admin.ReplayTurn{
	{Conversation: 7, Turn: 1, Input: "running shoes",
		Then:    admin.ReplaySide{Tools: []string{`search_products{"query":"running shoes"}`}, Products: []string{"SHO-RUN-001", "SHO-RUN-002"}, Cart: "empty", Reply: "Found 2"},
		Now:     admin.ReplaySide{Tools: []string{`search_products{"query":"running shoes"}`}, Products: []string{"SHO-RUN-001", "SHO-RUN-003"}, Cart: "empty", Reply: "Found 2"},
		Changed: []string{"products"}},
	{Conversation: 7, Turn: 2, Input: "[button] cart", Then: admin.ReplaySide{Cart: "empty", Reply: "Your cart is empty."}, Now: admin.ReplaySide{Cart: "empty", Reply: "Your cart is empty."}},
}

func TestReplayPages(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	f := &fakeReplayer{turns: replayTurns, release: make(chan struct{}), counted: make(chan struct{})}
	p := newPanelConfig(t, db, func(c *admin.Config) { c.Replayer = f })
	p.signIn()
	fx := seed(t, db)

	code, body := p.get("/admin/conversations/" + itoa(fx.conv.ID))
	if code != 200 || !strings.Contains(body, `href="/admin/conversations/`+itoa(fx.conv.ID)+`/replay"`) {
		t.Fatalf("transcript: %d, no replay button", code)
	}
	code, body = p.get("/admin/conversations/" + itoa(fx.conv.ID) + "/replay")
	if code != 200 || len(f.asked) != 1 || f.asked[0] != fx.conv.ID {
		t.Fatalf("conversation replay: %d, asked %v", code, f.asked)
	}
	for _, want := range []string{"2 turns replayed", "1 changed", `<p class="small diff">Products: SHO-RUN-001 SHO-RUN-003`, `<p class="small ">Tools: <code>search_products`} {
		if !strings.Contains(body, want) {
			t.Errorf("conversation replay lacks %q", want)
		}
	}
	if code, _ := p.get("/admin/conversations/999999/replay"); code != http.StatusNotFound {
		t.Errorf("unknown conversation: %d", code)
	}

	// A bad choice starts nothing.
	if code, _, _ := p.post("/admin/replay", url.Values{"since": {"5y"}}); code != http.StatusBadRequest {
		t.Errorf("bad since: %d", code)
	}
	if _, body := p.get("/admin/replay"); strings.Contains(body, "replay-job") {
		t.Error("a bad request started a replay")
	}
	if code, loc, _ := p.post("/admin/replay", url.Values{"since": {"24h"}}); code != http.StatusSeeOther || loc != "/admin/replay" {
		t.Fatalf("start: %d to %q", code, loc)
	}
	// The batch runs in the background: wait (bounded) until it counted
	// its turns.
	select {
	case <-f.counted:
	case <-time.After(30 * time.Second):
		t.Fatal("the replay did not count its turns within 30 s")
	}
	_, body = p.get("/admin/replay")
	if !strings.Contains(body, `data-state="running"`) || !strings.Contains(body, "Replaying… 0 of 2 turns") || !strings.Contains(body, `http-equiv="refresh"`) {
		t.Errorf("running page:\n%s", body)
	}
	// A second start while one runs leaves the running one alone.
	if code, _, _ := p.post("/admin/replay", url.Values{"since": {"1h"}}); code != http.StatusSeeOther {
		t.Errorf("second start: %d", code)
	}
	close(f.release)
	p.admin.WaitReplay()
	_, body = p.get("/admin/replay")
	if !strings.Contains(body, `data-state="done"`) || !strings.Contains(body, "Replayed 2 turns") || !strings.Contains(body, "1 changed") ||
		!strings.Contains(body, `<a href="/admin/conversations/7/replay">7</a>`) || strings.Contains(body, "[button] cart") {
		t.Errorf("done page:\n%s", body)
	}
	// How long it took reads "12 ms" or "1.5 s", not Go's "12.3456ms".
	if !regexp.MustCompile(`Replayed 2 turns in \d+(\.\d)? (ms|s|min):`).MatchString(body) {
		t.Errorf("the time taken is not humane:\n%s", body)
	}
}

func TestPlaygroundSavesAScenario(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	p := newPanelConfig(t, db, func(c *admin.Config) { c.Replayer = &fakeReplayer{} })
	p.signIn()
	if code, _ := p.get("/admin/playground/scenario?session=x"); code != http.StatusBadRequest {
		t.Errorf("bad session: %d", code)
	}
	session := "pg-0123456789abcdef"
	if code, _ := p.get("/admin/playground/scenario?session=" + session); code != http.StatusBadRequest {
		t.Errorf("a session with no conversation: %d", code)
	}
	ctx := context.Background()
	c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: "web", PlatformUserID: session})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.OpenConversation(ctx, db, catalog.ConversationKey{Channel: "web", ChatID: session}, c.ID); err != nil {
		t.Fatal(err)
	}
	resp, err := p.client.Get(p.srv.URL + "/admin/playground/scenario?session=" + session)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/yaml") ||
		!strings.Contains(resp.Header.Get("Content-Disposition"), "scenario.yaml") {
		t.Errorf("download: %d %v", resp.StatusCode, resp.Header)
	}
	if _, body := p.get("/admin/playground"); !strings.Contains(body, `id="pg-scenario"`) {
		t.Error("the playground has no Save as scenario link")
	}
}

// TestReplayFailureInWords: a replay that failed says so in a sentence,
// not with the Go error.
func TestReplayFailureInWords(t *testing.T) {
	f := &fakeReplayer{turns: replayTurns, release: released(), err: errors.New("eval: replay conversation 7: engine: planner: template: no such key")}
	p := newPanelConfig(t, catalogtest.SQLiteDemo(t), func(c *admin.Config) { c.Replayer = f })
	p.signIn()
	if code, _, _ := p.post("/admin/replay", url.Values{"since": {"24h"}}); code != http.StatusSeeOther {
		t.Fatalf("start: %d", code)
	}
	p.admin.WaitReplay()
	_, body := p.get("/admin/replay")
	if !strings.Contains(body, "The replay stopped: something went wrong; the error is logged.") || strings.Contains(body, "eval:") {
		t.Errorf("failed replay page:\n%s", body)
	}
}
