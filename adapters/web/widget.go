package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"shopbot/engine/locale"
)

// The widget's source: plain JavaScript and CSS, embedded; no build step.
var (
	//go:embed widget/widget.js
	widgetJS string
	//go:embed widget/widget.css
	widgetCSS string
)

// widgetAsset is /widget.js as served: the script with its stylesheet
// and the widget.* words of every language of the text catalogue filled
// in, plain and gzipped, built once.
type widgetAsset struct {
	plain, gz []byte
	etag      string
}

var widgetOnce = sync.OnceValue(buildWidget)

func buildWidget() widgetAsset {
	words := map[string]map[string]string{}
	for _, lang := range locale.Languages() {
		words[lang] = map[string]string{}
		for _, k := range locale.Keys(lang) {
			if name, ok := strings.CutPrefix(k, "widget."); ok {
				words[lang][name] = locale.Word(lang, k)
			} else if strings.HasPrefix(k, "status.") {
				words[lang][k] = locale.Word(lang, k) // an order's status, as the pill shows it
			}
		}
	}
	strs, _ := json.Marshal(words)
	css, _ := json.Marshal(strings.TrimSpace(widgetCSS))
	js := strings.Replace(widgetJS, `/*STRINGS*/{"en": {}}`, string(strs), 1)
	js = strings.Replace(js, `/*CSS*/''`, string(css), 1)
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	_, _ = zw.Write([]byte(js))
	_ = zw.Close()
	sum := sha256.Sum256([]byte(js))
	return widgetAsset{plain: []byte(js), gz: gz.Bytes(), etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
}

// WidgetGzipSize is the size of /widget.js gzipped, as a browser
// downloads it.
func WidgetGzipSize() int { return len(widgetOnce().gz) }

// Widget serves GET /widget.js: the embeddable chat widget, gzipped when
// the client accepts it, cacheable for five minutes and revalidated by
// ETag. Any page may load it (a script tag needs no CORS); what it may
// call is the chat API's allowlist (Origins).
func Widget(w http.ResponseWriter, r *http.Request) {
	a := widgetOnce()
	h := w.Header()
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("ETag", a.etag)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	h.Add("Vary", "Accept-Encoding")
	if r.Header.Get("If-None-Match") == a.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := a.plain
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		body = a.gz
	}
	_, _ = w.Write(body)
}
