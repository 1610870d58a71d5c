package admin

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"shopbot/catalog/importer"
)

// importJob is one import started from the panel; it runs in the
// background and its page shows the progress and, at the end, the same
// per-row report as `shopbot import`.
type importJob struct {
	ID       int
	Name     string
	Size     int64
	Started  time.Time
	mu       sync.Mutex
	read     int64
	done     bool
	summary  importer.Summary
	err      error
	finished time.Time
}

// importView is a consistent copy of a job for the template.
type importView struct {
	ID      int
	Name    string
	Size    int64
	Read    int64
	Percent int
	Done    bool
	Summary importer.Summary
	Err     string
	Took    string
	Refresh bool
}

func (j *importJob) view() importView {
	j.mu.Lock()
	defer j.mu.Unlock()
	v := importView{ID: j.ID, Name: j.Name, Size: j.Size, Read: j.read, Done: j.done, Summary: j.summary, Refresh: !j.done}
	if j.Size > 0 {
		v.Percent = int(min(100, j.read*100/j.Size))
	}
	if j.done {
		v.Percent = 100
		v.Took = j.finished.Sub(j.Started).Round(time.Millisecond).String()
	}
	if j.err != nil {
		v.Err = j.err.Error()
	}
	return v
}

// importJobs keeps the recent jobs of this process.
type importJobs struct {
	mu   sync.Mutex
	next int
	jobs map[int]*importJob
}

func newImportJobs() *importJobs { return &importJobs{jobs: map[int]*importJob{}} }

func (js *importJobs) add(j *importJob) {
	js.mu.Lock()
	defer js.mu.Unlock()
	js.next++
	j.ID = js.next
	js.jobs[j.ID] = j
	for id := range js.jobs { // keep the last 20
		if id <= j.ID-20 {
			delete(js.jobs, id)
		}
	}
}

func (js *importJobs) get(id int) *importJob {
	js.mu.Lock()
	defer js.mu.Unlock()
	return js.jobs[id]
}

func (s *Server) importPage(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, "import", "Import products", "products", importView{})
}

// startImport saves the uploaded file and imports it in the background,
// then shows the job's page.
func (s *Server) startImport(w http.ResponseWriter, r *http.Request) {
	file, hdr, err := r.FormFile("file")
	if err != nil {
		s.renderError(w, r, badRequest("Choose a CSV or JSONL file to import."))
		return
	}
	defer file.Close()
	tmp, err := os.CreateTemp("", "shopbot-import-*"+filepath.Ext(hdr.Filename))
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	size, err := io.Copy(tmp, file)
	if err == nil {
		_, err = tmp.Seek(0, io.SeekStart)
	}
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		s.renderError(w, r, fmt.Errorf("admin: save upload: %w", err))
		return
	}
	st, _ := s.settings.Get(r.Context())
	job := &importJob{Name: filepath.Base(hdr.Filename), Size: size, Started: time.Now()}
	s.imports.add(job)
	s.log.InfoContext(r.Context(), "import started", "file", job.Name, "bytes", size, "user", sessionFrom(r.Context()).Username)
	go s.runImport(job, tmp, st.Currency)
	http.Redirect(w, r, "/admin/import/"+strconv.Itoa(job.ID), http.StatusSeeOther)
}

func (s *Server) runImport(job *importJob, f *os.File, currency string) {
	defer os.Remove(f.Name())
	defer f.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	sum, err := importer.Import(ctx, s.db, f, job.Name, importer.Options{
		DefaultCurrency: currency,
		BatchSize:       500,
		Progress: func(n int64) {
			job.mu.Lock()
			job.read = n
			job.mu.Unlock()
		},
	})
	s.tree.reset()
	job.mu.Lock()
	job.done, job.summary, job.err, job.finished, job.read = true, sum, err, time.Now(), job.Size
	job.mu.Unlock()
	s.log.Info("import finished", "file", job.Name, "summary", sum.String(), "err", err)
}

func (s *Server) importStatus(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.Atoi(r.PathValue("id"))
	job := s.imports.get(id)
	if job == nil {
		s.renderError(w, r, notFound("Import"))
		return
	}
	s.render(w, r, http.StatusOK, "import", "Import "+job.Name, "products", job.view())
}
