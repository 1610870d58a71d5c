package web_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"shopbot/adapters/web"
	"shopbot/engine/locale"
)

// maxWidgetGzip is the widget's size budget, gzipped.
const maxWidgetGzip = 35 << 10

func getWidget(t *testing.T, hdr map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest("GET", "/widget.js", nil)
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	web.Widget(w, r)
	return w
}

// TestWidgetAsset: /widget.js is JavaScript within its size budget
// gzipped, carries every widget.* word of every catalogue language and
// the stylesheet, uses nothing a strict CSP blocks (eval, Function,
// inline style attributes, innerHTML), and is revalidated by ETag.
func TestWidgetAsset(t *testing.T) {
	w := getWidget(t, map[string]string{"Accept-Encoding": "gzip"})
	if w.Code != 200 || w.Header().Get("Content-Encoding") != "gzip" || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/javascript") ||
		w.Header().Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("%d %v", w.Code, w.Header())
	}
	size := w.Body.Len()
	t.Logf("widget.js: %d bytes gzipped", size)
	if size > maxWidgetGzip || size != web.WidgetGzipSize() {
		t.Errorf("widget.js is %d bytes gzipped, budget %d", size, maxWidgetGzip)
	}
	zr, err := gzip.NewReader(bytes.NewReader(w.Body.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	js, _ := io.ReadAll(zr)
	plain := getWidget(t, nil)
	if !bytes.Equal(plain.Body.Bytes(), js) || plain.Header().Get("Content-Encoding") != "" {
		t.Error("plain and gzipped bodies differ")
	}
	src := string(js)
	for _, lang := range locale.Languages() {
		for _, k := range locale.Keys(lang) {
			if name, ok := strings.CutPrefix(k, "widget."); ok {
				if !strings.Contains(src, `"`+name+`":`) {
					t.Errorf("widget lacks %s/%s", lang, k)
				}
			}
		}
	}
	for _, want := range []string{".launcher", "prefers-reduced-motion", "aria-live", "adoptedStyleSheets", "Добавить"} {
		if !strings.Contains(src, want) {
			t.Errorf("widget lacks %q", want)
		}
	}
	if strings.Contains(src, "/*STRINGS*/") || strings.Contains(src, "/*CSS*/") {
		t.Error("placeholders left in the widget")
	}
	forbidden := regexp.MustCompile(`\beval\(|new Function|innerHTML|insertAdjacentHTML|document\.write|setAttribute\('style'|\.cssText|setTimeout\('`)
	if m := forbidden.FindString(src); m != "" {
		t.Errorf("widget uses %q", m)
	}
	if hosts := regexp.MustCompile(`https?://[a-z0-9.-]+`).FindAllString(src, -1); len(hosts) > 0 {
		t.Errorf("widget names hosts %v: it must talk only to the shop that served it", hosts)
	}
	nm := getWidget(t, map[string]string{"If-None-Match": w.Header().Get("ETag")})
	if nm.Code != http.StatusNotModified || nm.Body.Len() != 0 {
		t.Errorf("revalidation: %d", nm.Code)
	}
}
