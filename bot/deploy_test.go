package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
)

// The compose file is parsed with the Compose specification's own Go
// library (no container runtime runs where the tests do), with the
// committed .env.example as its environment.

const composeFile = "../deploy/compose.yaml"

// loadCompose loads the compose file with the given variables (and nothing
// from the process environment).
func loadCompose(t *testing.T, env map[string]string) (*types.Project, error) {
	t.Helper()
	var list []string
	for k, v := range env {
		list = append(list, k+"="+v)
	}
	opts, err := cli.NewProjectOptions([]string{composeFile},
		cli.WithWorkingDirectory("../deploy"),
		cli.WithEnv(list),
		cli.WithName("shopbot"),
		cli.WithResolvedPaths(true),
	)
	if err != nil {
		t.Fatal(err)
	}
	return opts.LoadProject(context.Background())
}

// exampleEnv reads deploy/.env.example.
func exampleEnv(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("../deploy/.env.example")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf(".env.example: %q is not NAME=value", line)
		}
		env[k] = v
	}
	return env
}

func TestComposeServices(t *testing.T) {
	p, err := loadCompose(t, exampleEnv(t))
	if err != nil {
		t.Fatalf("deploy/compose.yaml does not load: %v", err)
	}
	want := []string{"grafana", "postgres", "prometheus", "proxy", "shopbot-1", "shopbot-2", "weaviate"}
	if got := p.ServiceNames(); !slices.Equal(sorted(got), want) {
		t.Fatalf("services = %v, want %v", got, want)
	}
	images := map[string]string{
		"shopbot-1": "shopbot:dev", "shopbot-2": "shopbot:dev",
		"weaviate": "cr.weaviate.io/semitechnologies/weaviate:" + strings.TrimPrefix(pinnedWeaviate(t), "v"),
	}
	for name, s := range p.Services {
		if s.Image == "" || strings.HasSuffix(s.Image, ":latest") || !strings.Contains(s.Image, ":") {
			t.Errorf("%s: image %q is not pinned to a tag", name, s.Image)
		}
		if w, ok := images[name]; ok && s.Image != w {
			t.Errorf("%s: image %q, want %q", name, s.Image, w)
		}
		if s.HealthCheck == nil || s.HealthCheck.Disable || len(s.HealthCheck.Test) < 2 {
			t.Errorf("%s: no health check", name)
		}
		checkBindMounts(t, name, s)
	}
}

// pinnedWeaviate is the version .ci/weaviate-server builds for the tests.
func pinnedWeaviate(t *testing.T) string {
	b, err := os.ReadFile("../.ci/weaviate-server")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^version=(v[0-9.]+)$`).FindSubmatch(b)
	if m == nil {
		t.Fatal(".ci/weaviate-server names no version=")
	}
	return string(m[1])
}

// checkBindMounts: every file the compose file mounts is in the repo.
func checkBindMounts(t *testing.T, name string, s types.ServiceConfig) {
	for _, v := range s.Volumes {
		if v.Type != types.VolumeTypeBind {
			continue
		}
		if _, err := os.Stat(v.Source); err != nil {
			t.Errorf("%s mounts %s: %v", name, v.Source, err)
		}
	}
}

func TestComposeShopbotReplicas(t *testing.T) {
	p, err := loadCompose(t, exampleEnv(t))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, s := range settingsFor("serve") {
		known[s.env] = true
	}
	for _, name := range []string{"shopbot-1", "shopbot-2"} {
		s := p.Services[name]
		for k := range s.Environment {
			if !known[k] {
				t.Errorf("%s passes %s, which shopbot serve does not read (bot/settings.go)", name, k)
			}
		}
		env := func(k string) string {
			if v := s.Environment[k]; v != nil {
				return *v
			}
			return ""
		}
		if !strings.HasPrefix(env("DATABASE_URL"), "postgres://shopbot:change-me-postgres@postgres:5432/") {
			t.Errorf("%s: DATABASE_URL = %q, want the compose Postgres", name, env("DATABASE_URL"))
		}
		if env("SEARCH_BACKEND") != "weaviate" || env("WEAVIATE_URL") != "http://weaviate:8080" {
			t.Errorf("%s: search is not the compose Weaviate", name)
		}
		if env("HTTP_ADDR") != "0.0.0.0:8080" {
			t.Errorf("%s: HTTP_ADDR = %q: the proxy and Prometheus reach port 8080", name, env("HTTP_ADDR"))
		}
		if s.Build == nil || s.Build.Args["VERSION"] == nil || "shopbot:"+*s.Build.Args["VERSION"] != s.Image {
			t.Errorf("%s: the build's VERSION argument is not the image tag %q", name, s.Image)
		}
		if hc := strings.Join(s.HealthCheck.Test, " "); !strings.Contains(hc, "shopbot healthcheck --ready") {
			t.Errorf("%s: health check %q does not ask /readyz", name, hc)
		}
		if !s.ReadOnly {
			t.Errorf("%s: root filesystem is writable", name)
		}
		if s.StopGracePeriod == nil || *s.StopGracePeriod <= types.Duration(shutdownTimeout) {
			t.Errorf("%s: stop_grace_period must be longer than the %v drain", name, shutdownTimeout)
		}
		wantDeps(t, s, map[string]string{"postgres": "service_healthy", "weaviate": "service_healthy"})
		if len(s.Ports) != 0 {
			t.Errorf("%s publishes %v: only the proxy should", name, s.Ports)
		}
	}
	wantDeps(t, p.Services["proxy"], map[string]string{"shopbot-1": "service_healthy", "shopbot-2": "service_healthy"})
	wantDeps(t, p.Services["grafana"], map[string]string{"prometheus": "service_healthy"})
}

func wantDeps(t *testing.T, s types.ServiceConfig, want map[string]string) {
	t.Helper()
	for dep, cond := range want {
		if got := s.DependsOn[dep].Condition; got != cond {
			t.Errorf("%s depends on %s with %q, want %q", s.Name, dep, got, cond)
		}
	}
}

func TestComposePorts(t *testing.T) {
	p, err := loadCompose(t, exampleEnv(t))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"proxy": ":8080->8080", "prometheus": "127.0.0.1:9090->9090", "grafana": "127.0.0.1:3000->3000"}
	for name, s := range p.Services {
		var got []string
		for _, port := range s.Ports {
			got = append(got, port.HostIP+":"+port.Published+"->"+itoa(port.Target))
		}
		if w, ok := want[name]; ok {
			if !slices.Equal(got, []string{w}) {
				t.Errorf("%s ports = %v, want [%s]", name, got, w)
			}
		} else if len(got) > 0 {
			t.Errorf("%s publishes %v; only the proxy, Prometheus and Grafana should", name, got)
		}
	}
	// Prometheus scrapes both replicas.
	b, err := os.ReadFile("../deploy/prometheus/prometheus.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{`"shopbot-1:8080"`, `"shopbot-2:8080"`, "credentials_file: /run/secrets/metrics_token", "/etc/prometheus/alerts.yaml"} {
		if !strings.Contains(string(b), target) {
			t.Errorf("prometheus.yml lacks %s", target)
		}
	}
}

// A required secret missing from the environment stops the load with the
// compose file's own message, rather than starting with an empty password.
func TestComposeRequiresSecrets(t *testing.T) {
	for _, secret := range []string{"POSTGRES_PASSWORD", "ADMIN_PASSWORD", "METRICS_TOKEN", "GRAFANA_ADMIN_PASSWORD"} {
		t.Run(secret, func(t *testing.T) {
			env := exampleEnv(t)
			delete(env, secret)
			_, err := loadCompose(t, env)
			if err == nil || !strings.Contains(err.Error(), "set "+secret+" in deploy/.env") {
				t.Fatalf("load without %s: err = %v, want the compose file's message", secret, err)
			}
		})
	}
}

func TestComposeEnvExampleIsComplete(t *testing.T) {
	b, err := os.ReadFile(composeFile)
	if err != nil {
		t.Fatal(err)
	}
	env := exampleEnv(t)
	for _, m := range regexp.MustCompile(`\$\{([A-Z_]+)`).FindAllSubmatch(b, -1) {
		if _, ok := env[string(m[1])]; !ok {
			t.Errorf("compose.yaml reads ${%s}, which .env.example does not list", m[1])
		}
	}
	if _, err := os.Stat(filepath.Join("..", "deploy", ".gitignore")); err != nil {
		t.Errorf("deploy/.gitignore (keeps deploy/.env out of git): %v", err)
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func itoa(n uint32) string { return strconv.FormatUint(uint64(n), 10) }
