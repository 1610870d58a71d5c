package admin

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"shopbot/engine"
)

// formMemory is what a multipart form keeps in memory (as FormValue).
const formMemory = 32 << 20

// uploadWindow is how long a multipart post (an import file, an image)
// may take to arrive and be answered; the server's own read and write
// timeouts are sized for ordinary requests.
const uploadWindow = 15 * time.Minute

// readForm parses a posted form and cleans every value, so that a NUL,
// another control character or invalid UTF-8 from a browser (or a
// script) never reaches the database: Postgres refuses NUL in text. Line
// breaks and tabs are kept (descriptions, prompts); "\r\n" becomes "\n".
// Every POST handler reads its fields after this has run (action and the
// sign-in route). A body over maxUpload is the one error.
func readForm(w http.ResponseWriter, r *http.Request) error {
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(time.Now().Add(uploadWindow))
		_ = rc.SetWriteDeadline(time.Now().Add(uploadWindow))
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxUpload)
	if r.Form == nil {
		// A plain form is parsed too; other errors leave fields empty,
		// as with FormValue.
		var tooBig *http.MaxBytesError
		if err := r.ParseMultipartForm(formMemory); errors.As(err, &tooBig) {
			return &userError{code: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf("The form is over %d MB.", maxUpload>>20)}
		}
	}
	cleanValues(r.Form)
	cleanValues(r.PostForm)
	if r.MultipartForm != nil {
		cleanValues(r.MultipartForm.Value)
	}
	return nil
}

func cleanValues(vs url.Values) {
	for k, v := range vs {
		for i := range v {
			v[i] = engine.CleanText(v[i], 0)
		}
		vs[k] = v
	}
}

// withForm reads and cleans the form before h (readForm).
func (s *Server) withForm(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := readForm(w, r); err != nil {
			s.renderError(w, r, err)
			return
		}
		h(w, r)
	}
}
