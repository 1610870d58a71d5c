package admin_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"shopbot/admin"
	"shopbot/catalog/catalogtest"
)

// TestSettingsChannels: the Settings page lists each channel with its
// state, who the shop is there and its last error in a sentence; without
// a channel report the section is left out.
func TestSettingsChannels(t *testing.T) {
	checked := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	chans := []admin.ChannelStatus{
		{Channel: "telegram", Configured: true, Mode: "long polling", LastChecked: checked, LastErrorAt: checked,
			LastError: "the token was refused by Telegram (401 Unauthorized) — check TELEGRAM_BOT_TOKEN"},
		{Channel: "slack", Configured: true, Connected: true, Mode: "Socket Mode", Name: "workspace Acme, bot @shopbot",
			LastChecked: checked, LastUpdate: checked},
		{Channel: "model", Off: "offline planner (OPENAI_API_KEY and OPENAI_BASE_URL unset)"},
	}
	p := newPanelConfig(t, catalogtest.SQLiteDemo(t), func(c *admin.Config) {
		c.Channels = func() []admin.ChannelStatus { return chans }
	})
	p.signIn()
	code, body := p.get("/admin/settings")
	if code != http.StatusOK {
		t.Fatalf("settings = %d", code)
	}
	i := strings.Index(body, `<h2 id="channels">Channels</h2>`)
	if i < 0 {
		t.Fatalf("no Channels section:\n%s", body)
	}
	section := body[i:]
	for _, want := range []string{
		`data-channel="telegram"`, "the token was refused by Telegram (401 Unauthorized) — check TELEGRAM_BOT_TOKEN", `<span class="error">error</span>`,
		`data-channel="slack"`, "workspace Acme, bot @shopbot", `<span class="ok">connected</span>`, "(Socket Mode)",
		`data-channel="model"`, "offline planner (OPENAI_API_KEY and OPENAI_BASE_URL unset)",
	} {
		if !strings.Contains(section, want) {
			t.Errorf("Channels section lacks %q", want)
		}
	}

	bare := newPanel(t, catalogtest.SQLiteDemo(t))
	bare.signIn()
	if _, body := bare.get("/admin/settings"); strings.Contains(body, `id="channels"`) {
		t.Error("a Channels section without a channel report")
	}
}
