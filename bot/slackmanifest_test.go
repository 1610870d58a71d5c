package main

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"sync/atomic"
	"testing"

	"gopkg.in/yaml.v3"
)

// slackManifest is the part of a Slack app manifest the adapter depends on.
type slackManifest struct {
	Features struct {
		AppHome struct {
			HomeTab bool `yaml:"home_tab_enabled"`
		} `yaml:"app_home"`
		Assistant *struct {
			Description string `yaml:"assistant_description"`
		} `yaml:"assistant_view"`
		SlashCommands []struct {
			Command string `yaml:"command"`
			URL     string `yaml:"url"`
		} `yaml:"slash_commands"`
	} `yaml:"features"`
	OAuth struct {
		Scopes struct {
			Bot []string `yaml:"bot"`
		} `yaml:"scopes"`
	} `yaml:"oauth_config"`
	Settings struct {
		Events struct {
			URL    string   `yaml:"request_url"`
			Events []string `yaml:"bot_events"`
		} `yaml:"event_subscriptions"`
		Interactivity struct {
			Enabled bool   `yaml:"is_enabled"`
			URL     string `yaml:"request_url"`
		} `yaml:"interactivity"`
		SocketMode bool `yaml:"socket_mode_enabled"`
	} `yaml:"settings"`
}

// The Slack app manifests in deploy/slack ask for the events, scopes and
// URLs the adapter serves: an app created from them works as installed.
func TestSlackManifests(t *testing.T) {
	var ready atomic.Bool
	ready.Store(true)
	mux := routes(httpHandlers{admin: fakePanel{}, chat: named("chat"), ready: &ready,
		slack: &slackEndpoints{events: named("slack events"), interactions: named("slack interactions"), commands: named("slack commands")}})
	for _, tc := range []struct {
		file   string
		socket bool
	}{{"../deploy/slack/manifest.yaml", false}, {"../deploy/slack/manifest-socket-mode.yaml", true}} {
		b, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		var m slackManifest
		if err := yaml.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		for _, ev := range []string{"app_mention", "message.im", "message.channels", "message.groups", "app_home_opened", "assistant_thread_started"} {
			if !slices.Contains(m.Settings.Events.Events, ev) {
				t.Errorf("%s: bot event %s missing", tc.file, ev)
			}
		}
		if m.Features.Assistant == nil || m.Features.Assistant.Description == "" {
			t.Errorf("%s: no assistant_view (the AI app surface: assistant threads, suggested prompts)", tc.file)
		}
		for _, s := range []string{"app_mentions:read", "assistant:write", "chat:write", "channels:history", "groups:history", "im:history", "users:read", "commands"} {
			if !slices.Contains(m.OAuth.Scopes.Bot, s) {
				t.Errorf("%s: bot scope %s missing", tc.file, s)
			}
		}
		if len(m.Features.SlashCommands) != 1 || m.Features.SlashCommands[0].Command != "/shop" {
			t.Errorf("%s: slash commands %+v, want /shop", tc.file, m.Features.SlashCommands)
		}
		if !m.Features.AppHome.HomeTab || !m.Settings.Interactivity.Enabled || m.Settings.SocketMode != tc.socket {
			t.Errorf("%s: home tab %v, interactivity %v, socket mode %v", tc.file, m.Features.AppHome.HomeTab, m.Settings.Interactivity.Enabled, m.Settings.SocketMode)
		}
		if tc.socket {
			continue
		}
		for want, raw := range map[string]string{"slack events": m.Settings.Events.URL, "slack interactions": m.Settings.Interactivity.URL, "slack commands": m.Features.SlashCommands[0].URL} {
			u, err := url.Parse(raw)
			if err != nil || u.Scheme != "https" {
				t.Errorf("%s: %q is not an https URL", tc.file, raw)
				continue
			}
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, u.Path, nil))
			if rec.Body.String() != want {
				t.Errorf("%s: %s reaches %q, want %q", tc.file, u.Path, rec.Body.String(), want)
			}
		}
	}
}
