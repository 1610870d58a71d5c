package analysis

import (
	"strings"
	"testing"
)

func TestSynonymsFile(t *testing.T) {
	if n := len(DefaultSynonyms()); n < 30 {
		t.Errorf("%d built-in synonym groups, want at least 30", n)
	}
	groups, err := ParseSynonyms(strings.NewReader("# comment\nsofa, couch # inline\n\n a ,b,\n"))
	if err != nil || len(groups) != 2 || groups[0][1] != "couch" || groups[1][1] != "b" {
		t.Errorf("parse: %q, %v", groups, err)
	}
	if _, err := ParseSynonyms(strings.NewReader("sofa, couch\nlonely\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a one-term group: %v", err)
	}
}
