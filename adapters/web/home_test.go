package web_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"shopbot/adapters/web"
)

// TestHome: / answers 200 with the shop's name, links to the panel, the
// playground and the docs, the chat widget's one tag, and no inline
// script.
func TestHome(t *testing.T) {
	for _, tc := range []struct {
		name, docs, wantName, wantDocs string
	}{
		{"Acme <Shop>", "https://docs.example.com/", "Acme &lt;Shop&gt;", `href="https://docs.example.com/"`},
		{"", "", "<h1>Shopbot</h1>", "README.md"},
	} {
		h := web.Home(web.HomeOptions{ShopName: func(context.Context) string { return tc.name }, DocsURL: tc.docs}, slog.New(slog.DiscardHandler))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
		body := rec.Body.String()
		if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			t.Fatalf("GET / = %d %s", rec.Code, rec.Header().Get("Content-Type"))
		}
		for _, want := range []string{tc.wantName, `href="/admin/"`, `href="/admin/playground"`, `id="chat"`, "/api/chat", tc.wantDocs} {
			if !strings.Contains(body, want) {
				t.Errorf("home page without %q:\n%s", want, body)
			}
		}
		if n := strings.Count(body, "<script"); n != 1 || !strings.Contains(body, `<script src="/widget.js" async></script>`) {
			t.Errorf("home page has %d scripts, want only the widget's tag (no inline script)", n)
		}
	}
}
