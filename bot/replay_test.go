package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"shopbot/catalog/catalogtest"
	"strings"
	"testing"
)

func TestReplayFlagErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"since and conversation": {[]string{"replay", "--since", "1h", "--conversation", "3"}, "give --since or --conversation, not both"},
		"since not a duration":   {[]string{"replay", "--since", "yesterday"}, `--since "yesterday": want a positive duration`},
		"since negative":         {[]string{"replay", "--since", "-2h"}, "want a positive duration"},
		"conversation not an id": {[]string{"replay", "--conversation", "12,abc"}, `"abc" is not a conversation id`},
		"negative limit":         {[]string{"replay", "--limit", "-1"}, "--limit must be 0 (all) or more"},
		"parallel 0":             {[]string{"replay", "--parallel", "0"}, "--parallel must be 1 to 64"},
		"a model by name":        {[]string{"replay", "--model", "gpt-4o"}, "--model takes only offline"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			err := run(context.Background(), tc.args, envFunc(map[string]string{"DATABASE_URL": "sqlite:" + filepath.Join(dir, "shop.db")}), nil, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(err) != 2 {
				t.Fatalf("err = %v (exit %d), want exit 2 mentioning %q", err, exitCode(err), tc.want)
			}
			if entries, _ := filepath.Glob(filepath.Join(dir, "*")); len(entries) != 0 {
				t.Errorf("a bad flag touched files: %v", entries)
			}
		})
	}
}

// The command over a shop a terminal shopper talked to: nothing changed,
// --limit and --conversation select turns, --json has then and now.
func TestReplayCommand(t *testing.T) {
	ctx := context.Background()
	vars := envFunc(map[string]string{"DATABASE_URL": catalogtest.SQLiteSeededURL(t)})
	// Headphones have no variants: "the first one" goes into the cart.
	talk := "headphones under 150\nadd the first one\nwhat's in my cart?\nwhat is your return policy?\n"
	if err := run(ctx, []string{"chat"}, vars, strings.NewReader(talk), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	replay := func(args ...string) string {
		t.Helper()
		var out bytes.Buffer
		if err := run(ctx, append([]string{"replay", "--model", "offline"}, args...), vars, nil, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	if got, want := replay(), "replayed 4 turns: 0 changed (tools 0, products 0, cart 0)\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := replay("--limit", "2", "--since", "1h"), "replayed 2 turns: 0 changed (tools 0, products 0, cart 0)\n"; got != want {
		t.Errorf("--limit 2: got %q, want %q", got, want)
	}
	var rep struct {
		Total int
		Turns []struct {
			Turn int
			Then struct{ Cart map[string]int }
			Now  struct{ Cart map[string]int }
		}
	}
	if err := json.Unmarshal([]byte(replay("--conversation", "1", "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Total != 4 || len(rep.Turns[1].Then.Cart) != 1 || len(rep.Turns[1].Now.Cart) != 1 {
		t.Errorf("report %+v", rep)
	}
}
