package admin

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"os"

	"sync"
	"time"

	"shopbot/catalog/importer"
)

// The import preview: an upload is saved and dry-run (importer.Options
// DryRun, on its first previewRows rows) and the page shows the detected
// format, the column mapping with the ignored columns, the first rows as
// mapped, the counts of new, changed, unchanged and refused products and
// the titles, prices and stocks the import would overwrite. Confirming
// starts the real import of the saved file as the usual background job.
//
// The saved file waits on the disk of the process that made the preview,
// under a random token, for previewTTL; a confirmation that reaches
// another replica (or comes late) is asked to upload the file again.

const (
	previewRows   = 20_000
	previewTTL    = time.Hour
	previewErrors = 20 // refused rows shown
)

// importPreviews are the saved uploads waiting for confirmation.
type importPreviews struct {
	mu sync.Mutex
	m  map[string]importPreview
}

type importPreview struct {
	path, name, user string
	size             int64
	at               time.Time
}

// put saves a preview and drops (with their files) those expired.
func (p *importPreviews) put(v importPreview, now time.Time) string {
	b := make([]byte, 16)
	rand.Read(b)
	token := hex.EncodeToString(b)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = map[string]importPreview{}
	}
	for t, old := range p.m {
		if now.Sub(old.at) > previewTTL {
			os.Remove(old.path)
			delete(p.m, t)
		}
	}
	p.m[token] = v
	return token
}

// take removes and returns the preview of token for user.
func (p *importPreviews) take(token, user string, now time.Time) (importPreview, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v, ok := p.m[token]
	if !ok || v.user != user || now.Sub(v.at) > previewTTL {
		return importPreview{}, false
	}
	delete(p.m, token)
	return v, true
}

// previewView is the preview page.
type previewView struct {
	Token   string
	Name    string
	Size    int64
	Format  string
	Sum     importer.Summary
	Errors  []importer.RowError
	Limit   int
	Refused int
}

// previewImport saves the upload, dry-runs it and shows what it would do.
func (s *Server) previewImport(w http.ResponseWriter, r *http.Request) {
	tmp, name, size, err := receiveUpload(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	defer tmp.Close()
	st, _ := s.settings.Get(r.Context())
	sum, err := importer.Import(r.Context(), s.db, tmp, name,
		importer.Options{DefaultCurrency: st.Currency, BatchSize: 500, DryRun: true, MaxRows: previewRows})
	if err != nil {
		os.Remove(tmp.Name())
		s.renderError(w, r, importProblem(err))
		return
	}
	v := previewView{Name: name, Size: size, Format: sum.Format.Label(), Sum: sum, Limit: previewRows,
		Errors: sum.Errors[:min(len(sum.Errors), previewErrors)], Refused: sum.Failed}
	v.Token = s.imports.previews.put(importPreview{path: tmp.Name(), name: name, user: sessionFrom(r.Context()).Username,
		size: size, at: s.cfg.Now()}, s.cfg.Now())
	s.render(w, r, http.StatusOK, "import_preview", "Preview "+name, "products", v)
}

// importProblem turns a file the importer cannot read into a sentence;
// a database failure stays an error.
func importProblem(err error) error {
	if errors.Is(err, importer.ErrNotTabular) {
		return badRequest("This file cannot be imported: %s.", err.Error())
	}
	return err
}

// confirmImport starts the import of a previewed file.
func (s *Server) confirmImport(w http.ResponseWriter, r *http.Request) {
	v, ok := s.imports.previews.take(r.FormValue("token"), sessionFrom(r.Context()).Username, s.cfg.Now())
	if !ok {
		s.renderError(w, r, badRequest("This preview is no longer available (it expired, was imported already, or was made on another server): upload the file again."))
		return
	}
	f, err := os.Open(v.path)
	if err != nil {
		s.renderError(w, r, badRequest("The previewed file is gone: upload it again."))
		return
	}
	s.launchImport(w, r, f, v.name, v.size)
}
