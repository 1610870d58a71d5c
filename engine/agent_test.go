package engine

import (
	"context"
	"errors"
	"testing"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine/agentdoor"
)

// TestAgentToolsAreTheRegistrys: every tool offered to agents is one of
// the registry's, with its description and schema (a tool renamed
// without the list would silently disappear from the agent door), and
// checkout is not among them.
func TestAgentToolsAreTheRegistrys(t *testing.T) {
	db := catalogtest.SQLite(t)
	e, err := New(Config{DB: db, Search: searchtest.NewDatabase(db)})
	if err != nil {
		t.Fatal(err)
	}
	got := e.AgentTools()
	if len(got) != len(agentdoor.Names()) {
		t.Fatalf("%d agent tools of %d listed: a listed name is not in the registry", len(got), len(agentdoor.Names()))
	}
	for _, a := range got {
		tl, _ := e.agent.Lookup(a.Name)
		if a.Description != tl.Description || a.Description == "" || a.Schema["additionalProperties"] != false {
			t.Errorf("%s: description or schema not the registry's", a.Name)
		}
		props, _ := a.Schema["properties"].(map[string]any)
		if _, has := props[agentdoor.IdempotencyArg]; has != a.Write || a.Write == a.ReadOnly {
			t.Errorf("%s: write %v, read-only %v, idempotency key in schema %v", a.Name, a.Write, a.ReadOnly, has)
		}
		if a.ReadOnly && a.Destructive {
			t.Errorf("%s: read-only and destructive", a.Name)
		}
	}
	_, err = e.CallTool(context.Background(), Turn{Channel: agentdoor.Channel, ChatID: "x", UserID: "x"}, "checkout", "{}")
	if !errors.Is(err, agentdoor.ErrNotOffered) {
		t.Errorf("checkout for an agent: %v", err)
	}
	_, err = e.CallTool(context.Background(), Turn{Channel: agentdoor.Channel, ChatID: "x\x00", UserID: "x"}, "view_cart", "{}")
	if !errors.Is(err, ErrBadTurn) {
		t.Errorf("a chat id with NUL: %v", err)
	}
}
