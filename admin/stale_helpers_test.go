package admin_test

import (
	"html"
	"net/http"
	"regexp"
)

var (
	loadedRE          = regexp.MustCompile(`name="loaded" value="([^"]*)"`)
	settingsVersionRE = regexp.MustCompile(`name="version" value="([^"]*)"`)
)

// opened is the hidden snapshot of the product form at path, as a
// browser that opened the page now posts it back.
func (p *panel) opened(path string) string {
	p.t.Helper()
	return p.hidden(path, loadedRE)
}

// settingsOpened is the settings version a browser opening the settings
// page now posts back.
func (p *panel) settingsOpened() string {
	p.t.Helper()
	return p.hidden("/admin/settings", settingsVersionRE)
}

func (p *panel) hidden(path string, re *regexp.Regexp) string {
	p.t.Helper()
	code, body := p.get(path)
	m := re.FindStringSubmatch(body)
	if code != http.StatusOK || m == nil {
		p.t.Fatalf("%s = %d without the hidden field %s:\n%s", path, code, re, body)
	}
	return html.UnescapeString(m[1])
}
