package admin_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	formRE    = regexp.MustCompile(`(?s)<form\b[^>]*>.*?</form>`)
	buttonRE  = regexp.MustCompile(`<button\b[^>]*>`)
	inlineJS  = regexp.MustCompile(`(?i)\son[a-z]+\s*=`)
	dangerous = regexp.MustCompile(`/(delete|cancel|refund|archive)\b|class="danger"`)
)

// TestDestructiveFormsAskFirst: the panel's CSP runs no inline script, so
// no template has an inline handler (an onsubmit="return confirm(…)"
// never ran: one click deleted); every form with a destructive button
// (class danger, or an action that deletes, cancels, refunds or archives)
// carries data-confirm on the form or on that button, which
// static/confirm.js asks; and the layout loads the script.
func TestDestructiveFormsAskFirst(t *testing.T) {
	files, err := filepath.Glob("templates/*.html")
	if err != nil || len(files) == 0 {
		t.Fatalf("templates: %v", err)
	}
	asked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		if m := inlineJS.FindString(src); m != "" {
			t.Errorf("%s has an inline handler (%s): the CSP blocks it", f, strings.TrimSpace(m))
		}
		for _, form := range formRE.FindAllString(src, -1) {
			tag := form[:strings.Index(form, ">")+1]
			for _, button := range buttonRE.FindAllString(form, -1) {
				destructive := dangerous.MatchString(button) || (dangerous.MatchString(tag) && !strings.Contains(button, "formaction"))
				if !destructive || strings.Contains(button, `class="secondary"`) {
					continue
				}
				if !strings.Contains(tag, "data-confirm=") && !strings.Contains(button, "data-confirm=") {
					t.Errorf("%s: %s in %s asks no confirmation", f, button, tag)
				}
				asked++
			}
		}
	}
	if asked < 8 {
		t.Errorf("%d destructive buttons found, want the 8 or more the panel has", asked)
	}
	layout, _ := os.ReadFile("templates/layout.html")
	if !strings.Contains(string(layout), `<script src="/admin/static/confirm.js" defer></script>`) {
		t.Error("the layout does not load confirm.js")
	}
}
