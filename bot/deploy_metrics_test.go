package main

import (
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"shopbot/catalog/catalogtest"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The alert rules and the dashboard name only metrics shopbot exports.
// Rules are checked and unit-tested by promtool (installed with Debian's
// prometheus package; CI installs it through .ci/run).

func promtool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatal("promtool not found: install it (apt-get install prometheus) — the alert rules must pass `promtool check rules` and `promtool test rules`")
	}
	return p
}

func TestAlertRulesPassPromtool(t *testing.T) {
	bin := promtool(t)
	for _, args := range [][]string{{"check", "rules", "alerts.yaml"}, {"test", "rules", "alerts_test.yaml"}} {
		cmd := exec.Command(bin, args...)
		cmd.Dir = "../deploy/prometheus"
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// alertExprs are the expressions of deploy/prometheus/alerts.yaml, by alert.
func alertExprs(t *testing.T) map[string]string {
	b, err := os.ReadFile("../deploy/prometheus/alerts.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Groups []struct {
			Rules []struct{ Alert, Expr string }
		}
	}
	if err := yaml.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			out[r.Alert] = r.Expr
		}
	}
	return out
}

// dashboardExprs are the queries of deploy/grafana/shopbot.json, by panel.
func dashboardExprs(t *testing.T) map[string]string {
	b, err := os.ReadFile("../deploy/grafana/shopbot.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		UID    string
		Panels []struct {
			ID      int
			Type    string
			Title   string
			Targets []struct{ Expr string }
		}
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("shopbot.json: %v", err)
	}
	if d.UID == "" {
		t.Error("the dashboard has no uid (provisioning needs a stable one)")
	}
	out := map[string]string{}
	ids := map[int]bool{}
	for _, p := range d.Panels {
		if ids[p.ID] {
			t.Errorf("panel id %d twice", p.ID)
		}
		ids[p.ID] = true
		if p.Type == "row" {
			continue
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for i, tg := range p.Targets {
			out[p.Title+"#"+string(rune('A'+i))] = tg.Expr
		}
	}
	return out
}

var metricName = regexp.MustCompile(`\b(shopbot_[a-z0-9_]+|go_[a-z0-9_]+|process_[a-z0-9_]+|up)\b`)

// exportedMetrics are the names shopbot's code registers (its shopbot_*
// literals), plus every family a running server's /metrics shows (the Go,
// process and database-pool collectors).
func exportedMetrics(t *testing.T) map[string]bool {
	names := map[string]bool{"up": true} // Prometheus's own per target
	literal := regexp.MustCompile(`"(shopbot_[a-z0-9_]+)"`)
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		for _, m := range literal.FindAllSubmatch(b, -1) {
			names[string(m[1])] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, map[string]string{"DATABASE_URL": catalogtest.SQLiteSeededURL(t)})
	s.waitReady(t)
	resp, err := http.Get(s.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	scrape, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, m := range regexp.MustCompile(`(?m)^# TYPE ([a-zA-Z0-9_:]+) `).FindAllSubmatch(scrape, -1) {
		names[string(m[1])] = true
	}
	if !names["go_sql_in_use_connections"] || !names["shopbot_ready"] {
		t.Fatalf("the scrape lacks the pool or readiness series:\n%s", scrape)
	}
	return names
}

func TestDashboardAndAlertsUseExportedMetrics(t *testing.T) {
	names := exportedMetrics(t)
	docs, err := os.ReadFile("../docs/metrics.md")
	if err != nil {
		t.Fatal(err)
	}
	check := func(where string, exprs map[string]string) {
		if len(exprs) == 0 {
			t.Errorf("%s: no expressions", where)
		}
		for name, expr := range exprs {
			refs := metricName.FindAllString(expr, -1)
			if len(refs) == 0 {
				t.Errorf("%s %s: %q names no metric", where, name, expr)
			}
			for _, m := range refs {
				base := m
				for _, suf := range []string{"_bucket", "_sum", "_count"} {
					if b, ok := strings.CutSuffix(m, suf); ok && names[b] {
						base = b
					}
				}
				if !names[base] {
					t.Errorf("%s %s uses %s, which shopbot does not export", where, name, m)
				}
				if strings.HasPrefix(base, "shopbot_") && !strings.Contains(string(docs), "`"+base+"`") {
					t.Errorf("%s %s uses %s, which docs/metrics.md does not list", where, name, base)
				}
			}
		}
	}
	check("alert", alertExprs(t))
	check("dashboard panel", dashboardExprs(t))
}

// The list: each of these is watched by an alert.
func TestAlertsCoverTheFailures(t *testing.T) {
	exprs := alertExprs(t)
	var all []string
	for _, e := range exprs {
		all = append(all, e)
	}
	joined := strings.Join(all, "\n")
	for _, m := range []string{"shopbot_ready", "shopbot_http_requests_total", "shopbot_degraded_turns_total",
		"shopbot_inbox_pending", "shopbot_model_request_duration_seconds_bucket", "shopbot_channel_up", "shopbot_shop_metrics_up"} {
		if !strings.Contains(joined, m) {
			t.Errorf("no alert watches %s", m)
		}
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range exprs {
			if !yield(k) {
				return
			}
		}
	})
	t.Logf("alerts: %v", names)
}
