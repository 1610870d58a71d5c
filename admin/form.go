package admin

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"shopbot/catalog/clip"
	"strings"
	"time"
)

// formMemory is what a multipart form keeps in memory (as FormValue).
const formMemory = 32 << 20

// uploadWindow is how long a multipart post (an import file, an image)
// may take to arrive and be answered; the server's own read and write
// timeouts are sized for ordinary requests.
const uploadWindow = 15 * time.Minute

// maxSignInBody bounds the sign-in form (a user name, a password, two
// tokens and a path).
const maxSignInBody = 16 << 10

// readSignInForm parses the sign-in form of a request from someone not
// signed in: application/x-www-form-urlencoded only, at most
// maxSignInBody read (http.MaxBytesReader stops the read there; the
// server then closes the connection), and no deadline extended — a slow
// body meets the server's ordinary read timeout. Values are cleaned as
// readForm cleans them.
func readSignInForm(w http.ResponseWriter, r *http.Request) error {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "application/x-www-form-urlencoded" {
		w.Header().Set("Connection", "close") // the body is not read
		return &userError{code: http.StatusUnsupportedMediaType, msg: "Sign in with the form on the sign-in page."}
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxSignInBody)
	if err := r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return &userError{code: http.StatusRequestEntityTooLarge, msg: "The sign-in form is too large."}
		}
		return &userError{code: http.StatusBadRequest, msg: "The sign-in form could not be read. Please try again."}
	}
	cleanValues(r.Form)
	cleanValues(r.PostForm)
	return nil
}

// readForm parses a posted form and cleans every value, so that a NUL,
// another control character or invalid UTF-8 from a browser (or a
// script) never reaches the database: Postgres refuses NUL in text. Line
// breaks and tabs are kept (descriptions, prompts); "\r\n" becomes "\n".
// Every POST handler of a signed-in staff member reads its fields after
// this has run (action, once the session is verified: only then may a
// multipart upload extend its deadlines). A body over maxUpload is the one
// error. The sign-in route reads its form with readSignInForm.
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
			v[i] = clip.Clean(v[i], 0)
		}
		vs[k] = v
	}
}
