package admin_test

import (
	"net/http"
	"strings"
	"testing"

	"shopbot/admin"
	"shopbot/catalog/catalogtest"
)

// TestSettingsShowAgentDoors: Settings shows the MCP and UCP URLs under
// the public URL, and whether each door is on.
func TestSettingsShowAgentDoors(t *testing.T) {
	p := newPanelConfig(t, catalogtest.SQLiteDemo(t), func(c *admin.Config) {
		c.PublicURL, c.MCPOn, c.UCPOn = "https://shop.example.com", true, false
	})
	p.signIn()
	code, body := p.get("/admin/settings")
	if code != http.StatusOK {
		t.Fatalf("settings = %d", code)
	}
	for _, want := range []string{
		"<th>MCP server</th><td><code>https://shop.example.com/mcp</code></td><td>on</td>",
		"<th>UCP profile</th><td><code>https://shop.example.com/.well-known/ucp</code></td><td>off</td>",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("settings page lacks %s", want)
		}
	}
}
