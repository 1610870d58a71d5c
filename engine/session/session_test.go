package session_test

import (
	"fmt"
	"testing"

	"shopbot/engine/session"
)

// A conversation remembers the last KeepDone turns: a turn delivered again
// within them is handled, an older one is forgotten.
func TestStateDoneKeepsTheLastTurns(t *testing.T) {
	st := session.LoadState("")
	for i := range session.KeepDone + 4 {
		st.MarkDone(fmt.Sprint("turn-", i))
	}
	st.MarkDone("") // no key: nothing to remember
	if len(st.Done) != session.KeepDone {
		t.Fatalf("kept %d keys, want %d", len(st.Done), session.KeepDone)
	}
	if st.Handled("turn-3") || !st.Handled("turn-4") || !st.Handled(fmt.Sprint("turn-", session.KeepDone+3)) {
		t.Errorf("done = %v", st.Done)
	}
	again := session.LoadState(st.Encode())
	if !again.Handled("turn-10") {
		t.Errorf("state did not survive its JSON: %v", again.Done)
	}
}

// Broken state starts afresh rather than failing the turn.
func TestLoadStateBroken(t *testing.T) {
	for _, raw := range []string{"{", "null", `{"shown": 5}`, "\x00"} {
		st := session.LoadState(raw)
		if st == nil || st.Listing != nil || st.Checkout != nil {
			t.Errorf("LoadState(%q) = %+v", raw, st)
		}
	}
}

// A More button's argument names one list: another list's, a malformed or
// an oversized one does not match, and the offset is not part of it.
func TestListingNamedBy(t *testing.T) {
	l := &session.Listing{Kind: session.ListSearch, Query: "boots", Offset: 5, Total: 12}
	arg := l.MoreArg()
	moved := *l
	moved.Offset = 10
	if !l.NamedBy(arg) || !moved.NamedBy(arg) {
		t.Errorf("%q does not name its own list", arg)
	}
	other := &session.Listing{Kind: session.ListSearch, Query: "sandals"}
	for _, bad := range []string{other.MoreArg(), "", "search", "category." + arg[len("search."):], arg + string(make([]byte, 40))} {
		if l.NamedBy(bad) {
			t.Errorf("NamedBy(%q) = true", bad)
		}
	}
	if !l.HasMore() || (&session.Listing{Offset: 12, Total: 12}).HasMore() || (*session.Listing)(nil).HasMore() {
		t.Error("HasMore is wrong at the ends")
	}
}
