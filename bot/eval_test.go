package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"shopbot/catalog/catalogtest"
)

const exampleScenarios = "../engine/eval/testdata/example.yaml"

func TestEvalRunsAgainstTheShopAndChangesNothing(t *testing.T) {
	dbURL := catalogtest.SQLiteSeededURL(t) // the shop as a first start seeds it
	db := catalogtest.SQLiteURL(t, dbURL)
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"eval", "--scenarios", exampleScenarios, "--parallel", "3"},
		envFunc(map[string]string{"DATABASE_URL": dbURL}), nil, &out, &errOut)
	if err != nil || exitCode(err) != 0 {
		t.Fatalf("exit %d: %v\n%s%s", exitCode(err), err, out.String(), errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 11 || lines[0] != "PASS running shoes under a budget" || lines[10] != "passed 10/10 scenarios" {
		t.Errorf("output:\n%s", out.String())
	}
	for _, table := range []string{"customers", "orders", "carts", "conversations", "messages"} {
		var n int
		if err := db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s in the shop: %d (%v), want 0", table, n, err)
		}
	}
}

func TestEvalFailuresExitOne(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(file, []byte("- name: shoes\n  turns:\n    - say: running shoes\n      expect: {first: SHO-RUN-004}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := run(context.Background(), []string{"eval", "--demo", "--scenarios", file, "--json", "--verbose"}, envFunc(nil), nil, &out, &bytes.Buffer{})
	if !errors.Is(err, errScenariosFailed) || exitCode(err) != 1 || err.Error() != "1 of 1 scenarios failed" {
		t.Fatalf("err = %v (exit %d)", err, exitCode(err))
	}
	var rep struct {
		Scenarios []struct {
			Name, Failure string
			Turn          int
			Transcript    []json.RawMessage
		}
		Passed, Total int
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if rep.Passed != 0 || rep.Total != 1 || rep.Scenarios[0].Turn != 1 || len(rep.Scenarios[0].Transcript) != 1 ||
		!strings.HasPrefix(rep.Scenarios[0].Failure, "expected SHO-RUN-004 first, got [") {
		t.Errorf("report: %+v", rep)
	}
}

func TestEvalRefusesABadFileBeforeRunning(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bad.yaml")
	src := "- name: fine\n  turns: [{say: hi}]\n- name: broken\n  turns:\n    - say: hi\n      press: cart\n"
	if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := run(context.Background(), []string{"eval", "--demo", "--scenarios", file}, envFunc(nil), nil, &out, &bytes.Buffer{})
	want := file + `:5: turn 1 of scenario "broken" has both say and press; a turn is one or the other`
	if exitCode(err) != 2 || err.Error() != want {
		t.Errorf("err = %v (exit %d), want %s", err, exitCode(err), want)
	}
	if out.Len() != 0 {
		t.Errorf("a bad file ran: %s", out.String())
	}
}

func TestEvalUsage(t *testing.T) {
	missing := "sqlite:" + filepath.Join(t.TempDir(), "none.db")
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"no file":      {[]string{"eval"}, "eval needs --scenarios FILE"},
		"parallel 0":   {[]string{"eval", "--scenarios", exampleScenarios, "--parallel", "0"}, "--parallel must be 1 to 64"},
		"model":        {[]string{"eval", "--scenarios", exampleScenarios, "--model", "gpt-5"}, "--model takes only offline"},
		"missing file": {[]string{"eval", "--scenarios", "nope.yaml"}, "nope.yaml: no such file"},
		"no shop":      {[]string{"eval", "--scenarios", exampleScenarios, "--database-url", missing}, "no shop there"},
	} {
		t.Run(name, func(t *testing.T) {
			err := run(context.Background(), tc.args, envFunc(nil), nil, &bytes.Buffer{}, &bytes.Buffer{})
			if exitCode(err) != 2 || err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v (exit %d), want it to mention %q", err, exitCode(err), tc.want)
			}
		})
	}
	if _, err := os.Stat(strings.TrimPrefix(missing, "sqlite:")); err == nil {
		t.Error("eval created the missing database file")
	}
}
