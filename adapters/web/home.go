package web

import (
	"bytes"
	"context"
	_ "embed"
	"html/template"
	"log/slog"
	"net/http"
)

//go:embed home.html
var homeHTML string

var homeTemplate = template.Must(template.New("home").Parse(homeHTML))

// HomeOptions configure the home page.
type HomeOptions struct {
	// ShopName gives the shop's name as the merchant set it; empty reads
	// "Shopbot".
	ShopName func(context.Context) string
	// DocsURL is where the documentation link points; empty names the
	// README in the source instead.
	DocsURL string
}

// Home is the shop's page at /: what this server is, links to the
// merchant panel, the playground and the documentation, and the place
// (#chat) where the web chat widget mounts.
func Home(o HomeOptions, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var name string
		if o.ShopName != nil {
			name = o.ShopName(r.Context())
		}
		if name == "" {
			name = "Shopbot"
		}
		var buf bytes.Buffer
		if err := homeTemplate.Execute(&buf, struct{ Shop, Docs string }{name, o.DocsURL}); err != nil {
			log.ErrorContext(r.Context(), "web: render home page", "err", err)
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; frame-ancestors 'none'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Write(buf.Bytes())
	})
}
