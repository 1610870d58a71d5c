package main

import (
	"os"
	"strings"
	"testing"
)

// The README's configuration reference is the settings list as
// `shopbot settings --markdown` prints it: every setting the code reads
// (TestEverySettingIsListed holds the list to the code) is documented
// with its default, and a setting added, renamed or changed fails here
// until the README is regenerated.
func TestReadmeConfigurationReference(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	_, rest, ok := strings.Cut(readme, "<!-- settings:")
	table, _, closed := strings.Cut(rest, "<!-- /settings -->")
	if !ok || !closed {
		t.Fatal("README.md has no <!-- settings: … --> … <!-- /settings --> section")
	}
	_, table, _ = strings.Cut(table, "-->\n")
	want, err := runOut(t, "settings", "--markdown")
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(table) != strings.TrimSpace(want) {
		t.Errorf("README.md's configuration reference differs from `go run ./bot settings --markdown`; paste its output between the markers.\nwant:\n%s", want)
	}
	for _, s := range new(Config).settings() {
		if !strings.Contains(table, "`"+s.env+"`") {
			t.Errorf("README.md does not document %s", s.env)
		}
	}
	if n := strings.Count(readme, "\n"); n > 300 {
		t.Errorf("README.md has %d lines; keep it to 300 and move detail to docs/", n)
	}
}
