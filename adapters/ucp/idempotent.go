package ucp

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"strconv"
)

// idempotent runs next once per Idempotency-Key, whichever replica
// receives the request: the same key with the same request gets the
// first response again; with another request, 409 Conflict. Without the
// header the request just runs.
func (h *handler) idempotent(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("Idempotency-Key")
		if key == "" {
			next(w, r)
			return
		}
		if len(key) > 255 {
			writeJSON(w, http.StatusBadRequest, errorBody("invalid_request", "Idempotency-Key is over 255 characters"))
			return
		}
		body, err := readBody(r)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		sum := sha256.Sum256(append([]byte(r.Method+" "+r.URL.Path+"\n"), body...))
		digest := hex.EncodeToString(sum[:])
		pending, prior, err := h.claimReply(r.Context(), key, digest)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		if prior != nil {
			if prior.Digest != digest {
				writeJSON(w, http.StatusConflict, errorBody("idempotency_conflict", "this Idempotency-Key was used with a different request"))
				return
			}
			writeReply(w, prior, true)
			return
		}
		rec := httptest.NewRecorder()
		next(rec, r)
		rp := &reply{Digest: digest, Status: rec.Code, Header: rec.Header().Clone(), Body: rec.Body.Bytes()}
		h.finishReply(r.Context(), key, pending, rp)
		writeReply(w, rp, false)
	}
}

func writeReply(w http.ResponseWriter, rp *reply, replayed bool) {
	for k, v := range rp.Header {
		w.Header()[k] = v
	}
	if replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(rp.Body)))
	w.WriteHeader(rp.Status)
	_, _ = w.Write(rp.Body)
}

// readBody reads and restores r's body, bounded.
func readBody(r *http.Request) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(http.MaxBytesReader(nil, r.Body, maxBody+1)); err != nil || buf.Len() > maxBody {
		return nil, &badRequest{"the body is over 64 KiB"}
	}
	r.Body = http.NoBody
	if buf.Len() > 0 {
		r.Body = readCloser{bytes.NewReader(buf.Bytes())}
	}
	return buf.Bytes(), nil
}

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }
