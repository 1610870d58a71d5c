package deploy_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/yaml"
)

const chart = "helm/shopbot"

// testValues are the smallest values that render: the required secrets.
var testValues = []string{
	"--set", "secrets.values.DATABASE_URL=postgres://shopbot:pw@db.example.com:5432/shopbot",
	"--set", "secrets.values.ADMIN_PASSWORD=admin-pw",
	"--set", "secrets.values.METRICS_TOKEN=scrape-token",
}

var (
	helmOnce sync.Once
	helmBin  string
	helmErr  error
)

// helm runs the helm the Makefile pins (HELM ?= …@version), built once
// from the module proxy into the user's cache.
func helm(t *testing.T, args ...string) (string, error) {
	t.Helper()
	helmOnce.Do(func() {
		mk, err := os.ReadFile("../Makefile")
		if err != nil {
			helmErr = err
			return
		}
		m := regexp.MustCompile(`(?m)^HELM \?= (\S+@v\S+)$`).FindSubmatch(mk)
		if m == nil {
			helmErr = errors.New("the Makefile pins no HELM ?= module@version")
			return
		}
		// Kept in the user's cache under its version (as .ci/weaviate-server
		// keeps the Weaviate server), so a warm run does not even relink it.
		cache, err := os.UserCacheDir()
		if err != nil {
			helmErr = err
			return
		}
		_, version, _ := strings.Cut(string(m[1]), "@")
		dir := filepath.Join(cache, "shopbot", "bin", "helm-"+version)
		helmBin = filepath.Join(dir, "helm")
		if _, err := os.Stat(helmBin); err == nil {
			return
		}
		cmd := exec.Command("go", "install", string(m[1]))
		cmd.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=-mod=mod")
		cmd.Dir = os.TempDir() // outside shopbot's module
		if out, err := cmd.CombinedOutput(); err != nil {
			helmErr = fmt.Errorf("go install %s: %v\n%s", m[1], err, out)
		}
	})
	if helmErr != nil {
		t.Fatal(helmErr)
	}
	home := t.TempDir()
	cmd := exec.Command(helmBin, args...)
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+home, "HELM_CONFIG_HOME="+home, "HELM_DATA_HOME="+home)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("helm %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), nil
}

func TestHelmLint(t *testing.T) {
	if out, err := helm(t, append([]string{"lint", "--strict", chart}, testValues...)...); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// manifest is one rendered document.
type manifest struct {
	Kind, APIVersion string
	Metadata         struct{ Name string }
	raw              []byte
}

func render(t *testing.T, extra ...string) map[string]manifest {
	t.Helper()
	out, err := helm(t, append(append([]string{"template", "shop", chart}, testValues...), extra...)...)
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]manifest{}
	for _, doc := range regexp.MustCompile(`(?m)^---\s*$`).Split(out, -1) {
		if strings.TrimSpace(regexp.MustCompile(`(?m)^#.*$`).ReplaceAllString(doc, "")) == "" {
			continue
		}
		var m manifest
		if err := yaml.Unmarshal([]byte(doc), &m); err != nil {
			t.Fatalf("rendered document is not YAML: %v\n%s", err, doc)
		}
		m.raw = []byte(doc)
		if _, dup := docs[m.Kind]; dup {
			t.Fatalf("two %s documents", m.Kind)
		}
		docs[m.Kind] = m
	}
	return docs
}

// decode strict-decodes a manifest into its API type: an unknown or
// misspelt field, or a value of the wrong type, fails.
func decode[T any](t *testing.T, docs map[string]manifest, kind, apiVersion string) *T {
	t.Helper()
	m, ok := docs[kind]
	if !ok {
		t.Fatalf("the chart renders no %s", kind)
	}
	if m.APIVersion != apiVersion {
		t.Errorf("%s is %s, want %s", kind, m.APIVersion, apiVersion)
	}
	v := new(T)
	if err := yaml.UnmarshalStrict(m.raw, v); err != nil {
		t.Fatalf("%s does not match the Kubernetes %s schema: %v", kind, apiVersion, err)
	}
	return v
}

func TestHelmTemplateMatchesKubernetesTypes(t *testing.T) {
	docs := render(t, "--set", "serviceMonitor.enabled=true", "--set", "prometheusRule.enabled=true")
	dep := decode[appsv1.Deployment](t, docs, "Deployment", "apps/v1")
	decode[corev1.Service](t, docs, "Service", "v1")
	decode[networkingv1.Ingress](t, docs, "Ingress", "networking.k8s.io/v1")
	hpa := decode[autoscalingv2.HorizontalPodAutoscaler](t, docs, "HorizontalPodAutoscaler", "autoscaling/v2")
	pdb := decode[policyv1.PodDisruptionBudget](t, docs, "PodDisruptionBudget", "policy/v1")
	cm := decode[corev1.ConfigMap](t, docs, "ConfigMap", "v1")
	sec := decode[corev1.Secret](t, docs, "Secret", "v1")
	decode[serviceMonitor](t, docs, "ServiceMonitor", "monitoring.coreos.com/v1")
	rule := decode[prometheusRule](t, docs, "PrometheusRule", "monitoring.coreos.com/v1")

	checkDeployment(t, dep)
	if hpa.Spec.MinReplicas == nil || *hpa.Spec.MinReplicas < 2 || hpa.Spec.ScaleTargetRef.Name != dep.Name {
		t.Errorf("HPA = %+v: want at least 2 replicas of %s", hpa.Spec, dep.Name)
	}
	if pdb.Spec.MinAvailable == nil || pdb.Spec.MinAvailable.IntValue() < 1 {
		t.Errorf("PDB keeps no replica available: %+v", pdb.Spec)
	}
	known := knownSettings(t)
	for k := range cm.Data {
		if !known[k] {
			t.Errorf("ConfigMap sets %s, which shopbot does not read (bot/settings.go)", k)
		}
	}
	for k := range sec.StringData {
		if !known[k] {
			t.Errorf("Secret sets %s, which shopbot does not read (bot/settings.go)", k)
		}
	}
	if cm.Data["HTTP_ADDR"] != "0.0.0.0:8080" || cm.Data["SEARCH_BACKEND"] != "weaviate" {
		t.Errorf("ConfigMap = %v: want HTTP_ADDR 0.0.0.0:8080 and the Weaviate backend", cm.Data)
	}
	alerts, err := os.ReadFile("prometheus/alerts.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var want prometheusRuleSpec
	if err := yaml.UnmarshalStrict(alerts, &want); err != nil {
		t.Fatal(err)
	}
	if len(rule.Spec.Groups) != 1 || fmt.Sprint(rule.Spec) != fmt.Sprint(want) {
		t.Errorf("the PrometheusRule differs from deploy/prometheus/alerts.yaml")
	}
	copied, err := os.ReadFile(filepath.Join(chart, "files/alerts.yaml"))
	if err != nil || !bytes.Equal(copied, alerts) {
		t.Errorf("helm/shopbot/files/alerts.yaml is not a copy of prometheus/alerts.yaml (cp it): %v", err)
	}
}

func checkDeployment(t *testing.T, dep *appsv1.Deployment) {
	t.Helper()
	spec := dep.Spec.Template.Spec
	if s := dep.Spec.Strategy; s.Type != appsv1.RollingUpdateDeploymentStrategyType || s.RollingUpdate == nil || s.RollingUpdate.MaxUnavailable.IntValue() != 0 {
		t.Errorf("strategy = %+v: want a rolling update that keeps every replica until its successor is ready", s)
	}
	if len(spec.Containers) != 1 {
		t.Fatalf("containers = %d", len(spec.Containers))
	}
	c := spec.Containers[0]
	if c.Image != "ghcr.io/shopbot/shopbot:dev" {
		t.Errorf("image = %s, want the chart's appVersion tag", c.Image)
	}
	probe := func(name string, p *corev1.Probe, path string) {
		if p == nil || p.HTTPGet == nil || p.HTTPGet.Path != path || p.HTTPGet.Port.String() != "http" {
			t.Errorf("%s probe = %+v, want GET %s on the http port", name, p, path)
		}
	}
	probe("liveness", c.LivenessProbe, "/healthz")
	probe("readiness", c.ReadinessProbe, "/readyz")
	probe("startup", c.StartupProbe, "/healthz")
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Limits.Memory().IsZero() {
		t.Errorf("resources = %+v: want a CPU request and a memory limit", c.Resources)
	}
	sc := c.SecurityContext
	if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
		t.Errorf("container security context = %+v: want a read-only root and no privilege escalation", sc)
	}
	if psc := spec.SecurityContext; psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.RunAsUser == nil || *psc.RunAsUser == 0 {
		t.Errorf("pod security context = %+v: want non-root", psc)
	}
	tmp := false
	for _, m := range c.VolumeMounts {
		for _, v := range spec.Volumes {
			tmp = tmp || (m.MountPath == "/tmp" && m.Name == v.Name && v.EmptyDir != nil)
		}
	}
	if !tmp {
		t.Error("no emptyDir at /tmp (the root filesystem is read-only)")
	}
	// shopbot drains for 15 s (bot/serve.go shutdownTimeout) after the
	// preStop pause; the grace period must outlast both.
	pre := int64(0)
	if c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.Sleep != nil {
		pre = c.Lifecycle.PreStop.Sleep.Seconds
	}
	if g := spec.TerminationGracePeriodSeconds; g == nil || *g <= 15+pre {
		t.Errorf("terminationGracePeriodSeconds = %v, want more than the 15 s drain plus the %d s preStop", g, pre)
	}
}

// knownSettings are the environment variables bot/settings.go lists.
func knownSettings(t *testing.T) map[string]bool {
	b, err := os.ReadFile("../bot/settings.go")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\t\t\{"([A-Z0-9_]+)", `).FindAllSubmatch(b, -1) {
		known[string(m[1])] = true
	}
	if len(known) < 20 {
		t.Fatalf("found %d settings in bot/settings.go: has its layout changed?", len(known))
	}
	return known
}

// Bad values stop the render with the chart's own message.
func TestHelmTemplateRefusesBadValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no database", []string{"--set", "secrets.values.DATABASE_URL="}, "secrets.values.DATABASE_URL is required"},
		{"sqlite", []string{"--set", "secrets.values.DATABASE_URL=sqlite:/data/shop.db"}, "must be a postgres:// URL"},
		{"no admin password", []string{"--set", "secrets.values.ADMIN_PASSWORD="}, "secrets.values.ADMIN_PASSWORD is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := helm(t, append(append([]string{"template", "shop", chart}, testValues...), tc.args...)...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	// An existing Secret needs no values; the pods read it.
	docs := render(t, "--set", "secrets.existingSecret=shop-secrets", "--set", "secrets.values.DATABASE_URL=", "--set", "autoscaling.enabled=false")
	if _, ok := docs["Secret"]; ok {
		t.Error("a Secret is rendered although secrets.existingSecret names one")
	}
	dep := decode[appsv1.Deployment](t, docs, "Deployment", "apps/v1")
	if dep.Spec.Replicas == nil || *dep.Spec.Replicas != 2 {
		t.Errorf("replicas = %v without the HPA, want 2", dep.Spec.Replicas)
	}
	if ref := dep.Spec.Template.Spec.Containers[0].EnvFrom[1].SecretRef; ref == nil || ref.Name != "shop-secrets" {
		t.Errorf("envFrom secret = %+v, want shop-secrets", ref)
	}
}

// The Prometheus Operator's kinds are not in k8s.io/api: these hold the
// fields the chart uses, and strict decoding refuses any other.
type serviceMonitor struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name   string            `json:"name"`
		Labels map[string]string `json:"labels"`
	} `json:"metadata"`
	Spec struct {
		Selector struct {
			MatchLabels map[string]string `json:"matchLabels"`
		} `json:"selector"`
		Endpoints []struct {
			Port, Path, Interval string
			Authorization        struct {
				Type        string                   `json:"type"`
				Credentials corev1.SecretKeySelector `json:"credentials"`
			} `json:"authorization"`
		} `json:"endpoints"`
	} `json:"spec"`
}

type prometheusRule struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name   string            `json:"name"`
		Labels map[string]string `json:"labels"`
	} `json:"metadata"`
	Spec prometheusRuleSpec `json:"spec"`
}

type prometheusRuleSpec struct {
	Groups []struct {
		Name  string `json:"name"`
		Rules []struct {
			Alert       string            `json:"alert"`
			Expr        string            `json:"expr"`
			For         string            `json:"for"`
			Labels      map[string]string `json:"labels"`
			Annotations map[string]string `json:"annotations"`
		} `json:"rules"`
	} `json:"groups"`
}
