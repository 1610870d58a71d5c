package admin

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/live"
	"shopbot/catalog/team"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// layout is the frame every signed-in page renders into.
type layout struct {
	Title string
	Nav   string // the highlighted menu entry
	User  string
	Role  team.StaffRole
	// Manager and Owner say which menu entries the user's role may open
	// (the route table decides; the menu only hides what would be refused).
	Manager, Owner bool
	CSRF           string
	// LiveAfter is the newest inbox event when the page was made: the
	// page's live stream starts after it, so nothing in between is missed.
	LiveAfter int64
	Flash     string
	Shop      string
	Demo      bool // the demo shop's data is in: the banner offers to remove it
	Page      any
}

var funcs = template.FuncMap{
	"money": catalog.FormatPrice,
	// optlabel is an order line's option values as sold: "42 / Navy".
	"optlabel": func(opts map[string]string) string { return catalog.OptionLabel(opts, nil) },
	"when": func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return t.UTC().Format("2006-01-02 15:04")
	},
	"whenp": func(t *time.Time) string {
		if t == nil || t.IsZero() {
			return "—"
		}
		return t.UTC().Format("2006-01-02 15:04")
	},
	"query": func(base url.Values, kv ...string) string {
		v := url.Values{}
		for k, vs := range base {
			v[k] = append([]string(nil), vs...)
		}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] == "" {
				v.Del(kv[i])
			} else {
				v.Set(kv[i], kv[i+1])
			}
		}
		if len(v) == 0 {
			return ""
		}
		return "?" + v.Encode()
	},
	"join": strings.Join,
	"mul":  func(a int64, b int) int64 { return a * int64(b) },
	"deref": func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	},
	"add": func(a, b int) int { return a + b },
	// duration prints a time.Duration (or Go's text of one) humane:
	// "1 min", "45 s", "2 h 5 min" (durations.go).
	"duration": durationText,
	// ms prints a number of milliseconds humane: "850 ms", "12 s".
	"ms": func(n int) string { return humane(time.Duration(n) * time.Millisecond) },
}

// mustParsePages parses each page template with the shared layout.
func mustParsePages() map[string]*template.Template {
	base := template.Must(template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/_*.html"))
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		panic(err)
	}
	pages := map[string]*template.Template{}
	for _, n := range names {
		name := strings.TrimSuffix(path.Base(n), ".html")
		if name == "layout" || strings.HasPrefix(name, "_") {
			continue
		}
		pages[name] = template.Must(template.Must(base.Clone()).ParseFS(templateFS, n))
	}
	return pages
}

// render writes a page: the layout around the named template.
func (s *Server) render(w http.ResponseWriter, r *http.Request, code int, name, title, nav string, data any) {
	l := layout{Title: title, Nav: nav, Page: data, Flash: takeFlash(w, r)}
	if sess := sessionFrom(r.Context()); sess != nil {
		l.User, l.CSRF, l.Role = sess.Username, sess.CSRFToken, sess.Role
		l.Manager, l.Owner = managers.allows(sess.Role), owners.allows(sess.Role)
		if s.cfg.Live != nil && s.db != nil {
			l.LiveAfter, _ = live.Latest(r.Context(), s.db)
		}
		if s.db != nil {
			st, err := catalog.GetDemoState(r.Context(), s.db)
			l.Demo = err == nil && st == catalog.DemoLoaded
		}
	}
	if st, err := s.settings.Get(r.Context()); err == nil {
		l.Shop = st.ShopName
	}
	var buf bytes.Buffer
	if err := s.pages[name].ExecuteTemplate(&buf, "layout.html", l); err != nil {
		s.log.ErrorContext(r.Context(), "render page", "page", name, "err", err)
		http.Error(w, "internal error rendering the page", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(buf.Bytes())
}

// errorPage is the data of the error template.
type errorPage struct {
	Code    int
	Message string
}

// renderError is the panel's one translation of errors into pages.
func (s *Server) renderError(w http.ResponseWriter, r *http.Request, err error) {
	code, msg := http.StatusInternalServerError, "Something went wrong; the error is logged."
	err = catalog.Unavailable(err)
	var ue *userError
	switch {
	case errors.As(err, &ue):
		code, msg = ue.code, ue.msg
	case errors.Is(err, catalog.ErrUnavailable):
		s.log.WarnContext(r.Context(), "admin request failed: database unavailable", "route", r.Pattern, "err", err)
		w.Header().Set("Retry-After", "5")
		code, msg = http.StatusServiceUnavailable, "The database is unreachable right now. Try again in a moment."
	case errors.Is(err, catalog.ErrNotFound):
		code, msg = http.StatusNotFound, "Not found."
	case errors.Is(err, catalog.ErrInvalidTransition), errors.Is(err, catalog.ErrConflict):
		code, msg = http.StatusConflict, sentence(err)
	case errors.Is(err, catalog.ErrInvalid):
		code, msg = http.StatusBadRequest, sentence(err)
	default:
		s.log.ErrorContext(r.Context(), "admin request failed", "method", r.Method, "route", r.Pattern, "err", err)
	}
	s.render(w, r, code, "error", http.StatusText(code), "", errorPage{Code: code, Message: msg})
}

// userError is a mistake the merchant can fix, shown as is.
type userError struct {
	code int
	msg  string
}

func (e *userError) Error() string { return e.msg }

func badRequest(format string, args ...any) error {
	return &userError{code: http.StatusBadRequest, msg: fmt.Sprintf(format, args...)}
}

func notFound(what string) error {
	return &userError{code: http.StatusNotFound, msg: what + " not found."}
}

// setFlash shows msg once on the next page.
func setFlash(w http.ResponseWriter, msg string) {
	http.SetCookie(w, &http.Cookie{Name: "flash", Value: url.QueryEscape(msg), Path: "/admin/", HttpOnly: true, SameSite: http.SameSiteLaxMode, MaxAge: 60})
}

func takeFlash(w http.ResponseWriter, r *http.Request) string {
	c, err := r.Cookie("flash")
	if err != nil {
		return ""
	}
	http.SetCookie(w, &http.Cookie{Name: "flash", Path: "/admin/", MaxAge: -1})
	msg, _ := url.QueryUnescape(c.Value)
	return msg
}

// redirect answers a form post with 303 See Other and a flash message.
func redirect(w http.ResponseWriter, r *http.Request, to, flash string) {
	if flash != "" {
		setFlash(w, flash)
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// static serves the embedded CSS and scripts.
func (s *Server) static() http.Handler {
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		panic(err)
	}
	fsrv := http.StripPrefix("/admin/static/", http.FileServerFS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=3600")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		fsrv.ServeHTTP(w, r)
	})
}
