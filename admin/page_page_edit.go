package admin

import (
	"bytes"
	"errors"
	"html/template"
	"net/http"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"shopbot/catalog"
)

// pageForm is /admin/pages/new and /admin/pages/{slug}: the page's
// Markdown and, after the Preview button, how it renders.
type pageForm struct {
	Existing bool // the slug is the page's key: fixed once created
	Slug     string
	Title    string
	Body     string
	Preview  template.HTML
	Error    string
}

// markdown renders a page body for the preview. Raw HTML in the source is
// left out, not passed through (goldmark's default, without
// html.WithUnsafe), and links with scripting schemes (javascript:, ...)
// lose their target: a page cannot carry a script into the panel.
var markdown = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify))

// renderMarkdown is the HTML preview of a page body.
func renderMarkdown(src string) (template.HTML, error) {
	var buf bytes.Buffer
	if err := markdown.Convert([]byte(src), &buf); err != nil {
		return "", err
	}
	return template.HTML(buf.String()), nil // safe: see markdown
}

func (s *Server) newPage(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, "page_edit", "New page", "pages", pageForm{})
}

func (s *Server) editPage(w http.ResponseWriter, r *http.Request) {
	p, err := catalog.GetPage(r.Context(), s.db, r.PathValue("slug"))
	if err != nil {
		s.renderError(w, r, notFound("Page"))
		return
	}
	s.render(w, r, http.StatusOK, "page_edit", p.Title, "pages", pageForm{Existing: true, Slug: p.Slug, Title: p.Title, Body: p.Body})
}

func (s *Server) createPage(w http.ResponseWriter, r *http.Request) {
	s.writePage(w, r, "")
}

func (s *Server) savePage(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	if _, err := catalog.GetPage(r.Context(), s.db, slug); err != nil {
		s.renderError(w, r, notFound("Page"))
		return
	}
	s.writePage(w, r, slug)
}

// writePage previews the form (the Preview button: nothing is saved) or
// saves it through the catalog, which re-chunks the page and queues the
// search-index update in the same transaction. A bad form is shown again
// with the reason, and nothing is written.
func (s *Server) writePage(w http.ResponseWriter, r *http.Request, slug string) {
	f := pageForm{Existing: slug != "", Slug: strings.TrimSpace(r.FormValue("slug")), Title: r.FormValue("title"), Body: r.FormValue("body")}
	if f.Existing {
		f.Slug = slug
	}
	in := catalog.PageInput{Slug: f.Slug, Title: f.Title, Body: f.Body}
	err := in.Validate()
	if err == nil && !f.Existing {
		if _, gerr := catalog.GetPage(r.Context(), s.db, in.Slug); gerr == nil {
			err = errors.New("a page with slug " + in.Slug + " already exists")
		}
	}
	if err == nil && r.FormValue("preview") != "" {
		if f.Preview, err = renderMarkdown(in.Body); err == nil {
			s.render(w, r, http.StatusOK, "page_edit", "Preview: "+in.Title, "pages", f)
			return
		}
	}
	if err == nil {
		_, err = catalog.UpsertPage(r.Context(), s.db, in)
	}
	if err != nil {
		if !errors.Is(err, catalog.ErrInvalid) && err.Error() != "a page with slug "+in.Slug+" already exists" {
			s.renderError(w, r, err)
			return
		}
		f.Error = sentence(errors.New(strings.ReplaceAll(err.Error(), "save page "+in.Slug+": ", "")))
		s.render(w, r, http.StatusBadRequest, "page_edit", "Page", "pages", f)
		return
	}
	s.log.InfoContext(r.Context(), "admin: page saved", "slug", in.Slug, "user", sessionFrom(r.Context()).Username)
	redirect(w, r, "/admin/pages/"+in.Slug, "Page saved.")
}
