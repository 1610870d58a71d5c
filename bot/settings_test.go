package main

import (
	"bytes"
	"context"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// envReaders are the functions that read the environment by name.
var envReaders = map[string]bool{"getenv": true, "Getenv": true, "LookupEnv": true}

// TestEverySettingIsListed: every environment variable the production
// code names in a getenv/os.Getenv/os.LookupEnv call is in the settings
// list (test helpers, the packages named *test or *fake, are not shopbot
// settings). With the list the only reader today, the scan guards the
// next setting added outside it.
func TestEverySettingIsListed(t *testing.T) {
	listed := map[string]bool{}
	for _, s := range new(Config).settings() {
		listed[s.env] = true
	}
	read := map[string]string{} // name → file
	root := ".."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (strings.HasPrefix(name, ".") || strings.HasSuffix(name, "test") || strings.HasSuffix(name, "fake") || name == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			var fn string
			switch x := call.Fun.(type) {
			case *ast.Ident:
				fn = x.Name
			case *ast.SelectorExpr:
				fn = x.Sel.Name
			}
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && envReaders[fn] && lit.Kind == token.STRING {
				v, _ := strconv.Unquote(lit.Value)
				read[v] = path
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, file := range read {
		if !listed[name] {
			t.Errorf("%s reads %s, which is not in the settings list (bot/settings.go)", file, name)
		}
	}
}

// TestCommandsReadTheirSettings: each command reads from the environment
// exactly the settings the list gives it, and registers flags for those
// only; every setting is read by some command.
func TestCommandsReadTheirSettings(t *testing.T) {
	readBySome := map[string]bool{}
	for _, c := range commands() {
		for _, s := range new(Config).settings() {
			for _, cmd := range s.cmds {
				if !isCommand(cmd) {
					t.Errorf("%s names an unknown command %q", s.env, cmd)
				}
			}
		}
		want := settingsFor(c.name)
		if len(want) == 0 {
			continue
		}
		var got []string
		getenv := func(k string) string { got = append(got, k); return "" }
		fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
		if _, err := loadConfig(fs, nil, getenv); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var names []string
		for _, s := range want {
			names = append(names, s.env)
			readBySome[s.env] = true
			if s.flag != "" && fs.Lookup(s.flag) == nil {
				t.Errorf("%s: no --%s", c.name, s.flag)
			}
		}
		if !slices.Equal(got, names) {
			t.Errorf("%s reads %v, want %v", c.name, got, names)
		}
	}
	for _, s := range new(Config).settings() {
		if !readBySome[s.env] {
			t.Errorf("no command reads %s", s.env)
		}
	}
	if _, err := loadConfig(flag.NewFlagSet("no-such-command", flag.ContinueOnError), nil, envFunc(nil)); err == nil {
		t.Error("loadConfig for an unknown command")
	}
}

func runOut(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, envFunc(nil), nil, &out, &errOut)
	return out.String() + errOut.String(), err
}

// TestCommandHelp: shopbot --help and shopbot help list the commands, one
// line each, and no flags; each command's -h shows its own flags and the
// environment settings it reads, secrets included, and nothing else.
func TestCommandHelp(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		out, err := runOut(t, args...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		for _, c := range commands() {
			if strings.Contains(out, "\n  "+c.name+" ") == c.hidden {
				t.Errorf("%v: listing of %s (hidden %v) wrong:\n%s", args, c.name, c.hidden, out)
			}
		}
		if strings.Contains(out, "-database-url") || strings.Contains(out, "DATABASE_URL  ") {
			t.Errorf("%v shows a command's flags:\n%s", args, out)
		}
	}
	for _, c := range commands() {
		out, err := runOut(t, c.name, "-h")
		header := "Usage: shopbot " + c.name
		if c.name == "help" {
			header = "Usage: shopbot [COMMAND]"
		}
		if exitCode(err) != 0 || !strings.Contains(out, header) {
			t.Errorf("%s -h: exit %d:\n%s", c.name, exitCode(err), out)
			continue
		}
		for _, s := range new(Config).settings() {
			reads := slices.Contains(s.cmds, c.name)
			if strings.Contains(out, "  "+s.env+"  ") != reads {
				t.Errorf("%s -h: %s shown %v, read %v", c.name, s.env, !reads, reads)
			}
			// A setting's flag says which variable it mirrors: "($DEMO)".
			if s.flag != "" && strings.Contains(out, "($"+s.env+")") != reads {
				t.Errorf("%s -h: --%s shown %v, read %v", c.name, s.flag, !reads, reads)
			}
		}
	}
	out, _ := runOut(t, "migrate", "-h")
	if strings.Contains(out, "shop-name") || !strings.Contains(out, "DATABASE_URL") {
		t.Errorf("migrate -h:\n%s", out)
	}
	out, _ = runOut(t, "serve", "-h")
	for _, want := range []string{"OPENAI_API_KEY", "TELEGRAM_BOT_TOKEN", "SLACK_BOT_TOKEN", "ADMIN_PASSWORD", "gpt-4o-mini"} {
		if !strings.Contains(out, want) {
			t.Errorf("serve -h lacks %s", want)
		}
	}
	var stdout bytes.Buffer
	if err := run(context.Background(), []string{"help", "healthcheck"}, envFunc(nil), nil, &stdout, io.Discard); exitCode(err) != 0 || !strings.Contains(stdout.String(), "-ready") {
		t.Errorf("help healthcheck: %v\n%s", err, stdout.String())
	}
	if _, err := runOut(t, "help", "nonsense"); exitCode(err) != 2 {
		t.Errorf("help nonsense: %v", err)
	}
}

// TestSettingsReference: `shopbot settings --markdown` is one table row
// per setting; the plain listing names each.
func TestSettingsReference(t *testing.T) {
	md, err := runOut(t, "settings", "--markdown")
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(md), "\n")
	list := new(Config).settings()
	if len(rows) != len(list)+2 || !strings.HasPrefix(rows[0], "| variable | default |") {
		t.Fatalf("%d rows for %d settings:\n%s", len(rows), len(list), md)
	}
	for i, s := range list {
		if !strings.HasPrefix(rows[i+2], "| `"+s.env+"` |") || strings.Count(rows[i+2], " | ") != 4 {
			t.Errorf("row %d = %s", i, rows[i+2])
		}
	}
	plain, err := runOut(t, "settings")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range list {
		if !strings.Contains(plain, s.env+" ") {
			t.Errorf("settings lacks %s", s.env)
		}
	}
	if _, err := runOut(t, "settings", "extra"); exitCode(err) != 2 {
		t.Errorf("settings extra: %v", err)
	}
}

// TestVersion: the stamped version wins; else the module version; else
// the commit (dirty marked); else dev.
func TestVersion(t *testing.T) {
	out, err := runOut(t, "version")
	if err != nil || out != "shopbot "+buildVersion()+"\n" {
		t.Errorf("version = %q, %v", out, err)
	}
	old := version
	t.Cleanup(func() { version = old })
	version = "v1.4.0-3-gabc1234"
	if out, _ := runOut(t, "version"); out != "shopbot v1.4.0-3-gabc1234\n" {
		t.Errorf("stamped version = %q", out)
	}
	for _, tc := range []struct {
		settings []debug.BuildSetting
		want     string
	}{
		{nil, "dev"},
		{[]debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}}, "0123456789ab"},
		{[]debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}, "0123456789ab-dirty"},
		{[]debug.BuildSetting{{Key: "vcs.modified", Value: "false"}, {Key: "vcs.revision", Value: "abc"}}, "abc"},
	} {
		if got := revisionOf(tc.settings); got != tc.want {
			t.Errorf("revisionOf(%v) = %q, want %q", tc.settings, got, tc.want)
		}
	}
}
