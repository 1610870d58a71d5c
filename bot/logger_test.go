package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/trace/noop"

	"shopbot/engine/logctx"
)

// TestLogSettings: LOG_FORMAT picks text or JSON, LOG_LEVEL overrides the
// command's level, and a bad value of either is a usage error that names
// the setting before the command runs.
func TestLogSettings(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		bad  string
		json bool
	}{
		{env: map[string]string{"LOG_FORMAT": "xml"}, bad: "LOG_FORMAT"},
		{env: map[string]string{"LOG_LEVEL": "verbose"}, bad: "LOG_LEVEL"},
		{env: map[string]string{"LOG_LEVEL": "info+2"}, bad: "LOG_LEVEL"},
		{env: map[string]string{"LOG_FORMAT": "JSON", "LOG_LEVEL": "Debug"}, json: true},
		{env: map[string]string{}},
	} {
		var out, errOut bytes.Buffer
		err := run(context.Background(), []string{"migrate", "--database-url", "sqlite:" + t.TempDir() + "/x.db"}, envFunc(tc.env), nil, &out, &errOut)
		if tc.bad != "" {
			var ue *usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.bad) {
				t.Errorf("%v: err = %v, want a usage error naming %s", tc.env, err, tc.bad)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", tc.env, err)
		}
	}

	o, err := parseLogOptions("json", "debug")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	log, lv := newLogger(&buf, o)
	e := env{log: log, level: lv}
	e.logger(slog.LevelWarn).Debug("kept", "k", 1) // LOG_LEVEL=debug wins over the command's warn
	var rec map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil || rec["msg"] != "kept" {
		t.Fatalf("JSON line = %q (%v)", buf.String(), err)
	}

	o, _ = parseLogOptions("", "")
	buf.Reset()
	log, lv = newLogger(&buf, o)
	e = env{log: log, level: lv}
	e.logger(slog.LevelWarn).Info("dropped")
	e.logger(slog.LevelInfo).Info("shown", "k", 1)
	if got := buf.String(); strings.Contains(got, "dropped") || !strings.Contains(got, `msg=shown k=1`) {
		t.Errorf("text log = %q", got)
	}
}

// TestAccessLog: one line per request with method, route pattern,
// status, duration and bytes, and the request id (answered back, and on
// every line logged while the request is served); nothing of the path,
// query, headers or body, where tokens and a shopper's contact details
// travel.
func TestAccessLog(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(logctx.NewHandler(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo})))
	mux := http.NewServeMux()
	mux.HandleFunc("POST /admin/signin/{token}", func(w http.ResponseWriter, r *http.Request) {
		log.InfoContext(r.Context(), "inside")
		w.WriteHeader(http.StatusAccepted)
		io.WriteString(w, "hello")
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	srv := httptest.NewServer(accessLog(log, noop.NewTracerProvider(), mux))
	defer srv.Close()

	secrets := []string{"s3cr3t-token", "eva@example.com", "5550100", "Bearer-abc", "hunter2"}
	req, _ := http.NewRequest("POST", srv.URL+"/admin/signin/s3cr3t-token?email=eva@example.com&phone=5550100", strings.NewReader("password=hunter2"))
	req.Header.Set("Authorization", "Bearer-abc")
	req.Header.Set(requestIDHeader, "proxy-id.1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get(requestIDHeader); got != "proxy-id.1" {
		t.Errorf("request id answered %q, want the proxy's", got)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want the handler's line and the access line, got:\n%s", buf.String())
	}
	for _, s := range secrets {
		if strings.Contains(buf.String(), s) {
			t.Errorf("the log shows %q:\n%s", s, buf.String())
		}
	}
	var inside, access map[string]any
	_ = json.Unmarshal([]byte(lines[0]), &inside)
	_ = json.Unmarshal([]byte(lines[1]), &access)
	if inside["request_id"] != "proxy-id.1" {
		t.Errorf("handler's line without the request id: %s", lines[0])
	}
	want := map[string]any{"msg": "http request", "method": "POST", "route": "POST /admin/signin/{token}",
		"status": float64(202), "bytes": float64(5), "request_id": "proxy-id.1"}
	for k, v := range want {
		if access[k] != v {
			t.Errorf("access line %s = %v, want %v: %s", k, access[k], v, lines[1])
		}
	}
	if _, ok := access["duration_ms"].(float64); !ok {
		t.Errorf("no duration: %s", lines[1])
	}

	// A malformed id is replaced; a probe that succeeds logs at debug
	// level; an unknown path is "unmatched".
	buf.Reset()
	for _, path := range []string{"/healthz", "/nope/eva@example.com"} {
		req, _ = http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set(requestIDHeader, "bad id level=ERROR")
		resp, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get(requestIDHeader); len(got) != 16 {
			t.Errorf("%s: request id %q, want a fresh one", path, got)
		}
	}
	got := buf.String()
	if strings.Count(got, "\n") != 1 || !strings.Contains(got, `"route":"unmatched"`) || !strings.Contains(got, `"status":404`) || strings.Contains(got, "eva@") {
		t.Errorf("probe and unmatched lines:\n%s", got)
	}
}
