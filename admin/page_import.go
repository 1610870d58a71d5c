package admin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/importer"
)

// Imports started from the panel run in the background of the process
// that received the upload and record themselves in the import_jobs table
// (importer.Job); the job's page reads that table, so it works on every
// replica, and a job whose process died shows as interrupted.

// importJobs tracks the imports this process runs (tests wait for them)
// and the previewed uploads waiting for confirmation.
type importJobs struct {
	wg       sync.WaitGroup
	previews importPreviews
}

func newImportJobs() *importJobs { return &importJobs{} }

// recentImports is how many jobs the import form lists.
const recentImports = 10

// importView is the import page: the form with the recent jobs, or one
// job's progress and result.
type importView struct {
	ID        int64
	Name      string
	Size      int64
	StartedBy string
	Percent   int
	State     string // running, done, failed, interrupted
	Job       catalog.ImportJob
	Errors    []catalog.ImportJobError // the kept ones, at most 1,000
	More      int64                    // failed rows not kept
	Took      string
	LastBeat  string
	Refresh   bool
	Recent    []importRow
}

// importRow is a job in the form page's list.
type importRow struct {
	ID      int64
	Name    string
	State   string
	Started time.Time
	Job     catalog.ImportJob
}

func (s *Server) importPage(w http.ResponseWriter, r *http.Request) {
	jobs, err := catalog.ListImportJobs(r.Context(), s.db, recentImports)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	v := importView{}
	for _, j := range jobs {
		v.Recent = append(v.Recent, importRow{ID: j.ID, Name: j.FileName, State: s.importState(j), Started: j.StartedAt, Job: j})
	}
	s.render(w, r, http.StatusOK, "import", "Import products", "products", v)
}

func (s *Server) importState(j catalog.ImportJob) string {
	return j.State(s.cfg.Now(), catalog.ImportStaleAfter)
}

// startImport saves the uploaded file, records the job and imports it in
// the background, then shows the job's page.
func (s *Server) startImport(w http.ResponseWriter, r *http.Request) {
	tmp, name, size, err := receiveUpload(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.launchImport(w, r, tmp, name, size)
}

// receiveUpload saves the form's product file to a temporary file,
// rewound, and returns it with the file's base name and size. A form
// without a file is a bad request that names every format the importer
// reads.
func receiveUpload(r *http.Request) (tmp *os.File, name string, size int64, err error) {
	file, hdr, err := r.FormFile("file")
	if err != nil {
		labels := make([]string, len(importer.ProductFormats))
		for i, f := range importer.ProductFormats {
			labels[i] = f.Label()
		}
		return nil, "", 0, badRequest("Choose a product file to import: %s.", strings.Join(labels, ", "))
	}
	defer file.Close()
	tmp, size, err = saveUpload(file, filepath.Ext(hdr.Filename))
	if err != nil {
		return nil, "", 0, err
	}
	return tmp, filepath.Base(hdr.Filename), size, nil
}

// launchImport records the job for the saved upload tmp and imports it in
// the background (tmp is removed at the end), then shows the job's page.
func (s *Server) launchImport(w http.ResponseWriter, r *http.Request, tmp *os.File, name string, size int64) {
	user := sessionFrom(r.Context()).Username
	job, err := importer.StartJob(r.Context(), s.db,
		catalog.ImportJob{FileName: name, SizeBytes: size, StartedBy: user},
		importer.JobConfig{Now: s.cfg.Now})
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		s.renderError(w, r, err)
		return
	}
	st, _ := s.settings.Get(r.Context())
	s.log.InfoContext(r.Context(), "import started", "job", job.ID(), "file", name, "bytes", size, "user", user)
	s.imports.wg.Add(1)
	go s.runImport(job, tmp, st.Currency)
	http.Redirect(w, r, "/admin/import/"+strconv.FormatInt(job.ID(), 10), http.StatusSeeOther)
}

// saveUpload copies the upload to a temporary file, rewound.
func saveUpload(src io.Reader, ext string) (*os.File, int64, error) {
	tmp, err := os.CreateTemp("", "shopbot-import-*"+ext)
	if err != nil {
		return nil, 0, fmt.Errorf("admin: save upload: %w", err)
	}
	size, err := io.Copy(tmp, src)
	if err == nil {
		_, err = tmp.Seek(0, io.SeekStart)
	}
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, 0, fmt.Errorf("admin: save upload: %w", err)
	}
	return tmp, size, nil
}

func (s *Server) runImport(job *importer.Job, f *os.File, currency string) {
	defer s.imports.wg.Done()
	defer os.Remove(f.Name())
	defer f.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	sum, err := job.Run(ctx, f, importer.Options{DefaultCurrency: currency, BatchSize: 500})
	s.tree.reset()
	s.log.Info("import finished", "job", job.ID(), "summary", sum.String(), "err", err)
}

func (s *Server) importStatus(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		s.renderError(w, r, notFound("Import"))
		return
	}
	v, err := s.importJobView(r.Context(), id)
	if errors.Is(err, catalog.ErrNotFound) {
		err = notFound("Import")
	}
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "import", "Import "+v.Name, "products", v)
}

// importJobView reads a job and its kept errors from the database.
func (s *Server) importJobView(ctx context.Context, id int64) (importView, error) {
	j, err := catalog.GetImportJob(ctx, s.db, id)
	if err != nil {
		return importView{}, err
	}
	errs, err := catalog.ImportJobErrors(ctx, s.db, id, importer.DefaultMaxErrors)
	if err != nil {
		return importView{}, err
	}
	v := importView{ID: j.ID, Name: j.FileName, Size: j.SizeBytes, StartedBy: j.StartedBy, Job: j,
		State: s.importState(j), Errors: errs, More: j.MoreErrors(len(errs)),
		LastBeat: j.HeartbeatAt.UTC().Format("2006-01-02 15:04:05 UTC")}
	if j.SizeBytes > 0 {
		v.Percent = int(min(100, j.BytesRead*100/j.SizeBytes))
	}
	v.Refresh = v.State == catalog.ImportRunning
	if !j.FinishedAt.IsZero() {
		v.Took = j.FinishedAt.Sub(j.StartedAt).Round(time.Millisecond).String()
	}
	if v.State == catalog.ImportDone {
		v.Percent = 100
	}
	return v, nil
}
