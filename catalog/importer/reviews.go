package importer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// ErrNotReviews reports a file that is neither a CSV nor a JSONL reviews
// file.
var ErrNotReviews = errors.New("not a CSV or JSONL reviews file")

// ReviewColumns are the columns of a reviews file, in any order; title
// may be left out.
var ReviewColumns = []string{"sku", "rating", "author", "title", "body", "created_at"}

// reviewProgressRows is how often, in rows, a reviews import reports
// progress (each row is its own transaction, so rows are slower than
// product batches).
const reviewProgressRows = 100

// reviewRow is one row of a reviews file, where it was, and what was wrong
// with it before it reached the catalog.
type reviewRow struct {
	line int
	in   catalog.ReviewInput
	err  error
}

// ImportReviews adds or updates reviews from r, a CSV file with a header
// row or JSONL (sku, rating 1–5, author, title, body, created_at), each
// row in its own transaction with its passage and the product's rating
// summary (catalog.ImportReview): a bad row is counted in the Summary with
// its line and reason, the others are saved, and importing the same file
// again changes nothing. The file goes through the products' opening
// (binary data and empty files refused, one row at most 8 MiB).
func ImportReviews(ctx context.Context, db bun.IDB, r io.Reader, name string, opts Options) (Summary, error) {
	opts = opts.withDefaults()
	counter := &countingReader{r: r}
	imp := &run{opts: opts}
	format, err := readReviews(counter, name, func(rw reviewRow) error {
		imp.sum.Rows++
		if err := importReviewRow(ctx, db, rw, &imp.sum); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			imp.fail(rw.line, rw.in.SKU, err.Error())
		}
		if imp.sum.Rows%reviewProgressRows == 0 {
			imp.progress(counter.n)
		}
		return nil
	})
	imp.sum.Format = format
	if err != nil {
		return imp.sum, err
	}
	imp.progress(counter.n)
	return imp.sum, nil
}

// importReviewRow saves one row and counts it; a row error is returned.
func importReviewRow(ctx context.Context, db bun.IDB, rw reviewRow, sum *Summary) error {
	if rw.err != nil {
		return rw.err
	}
	out, err := catalog.ImportReview(ctx, db, rw.in)
	if errors.Is(err, catalog.ErrInvalid) {
		// The catalog's wrapping names the SKU and author; the line says
		// which row, so keep the reason only.
		_, why, _ := strings.Cut(err.Error(), catalog.ErrInvalid.Error()+": ")
		return errors.New(why)
	}
	if err != nil {
		return err
	}
	switch out {
	case catalog.ReviewCreated:
		sum.Imported++
	case catalog.ReviewUpdated:
		sum.Updated++
	}
	return nil
}

// readReviews calls fn with each row of a reviews file, JSONL when the
// name ends in .jsonl, .ndjson or .json or the content starts with "{",
// CSV with a header row otherwise.
func readReviews(r io.Reader, name string, fn func(reviewRow) error) (Format, error) {
	br, head, err := openText(r, name, ErrNotReviews)
	if err != nil {
		return "", err
	}
	if detect(name, head) == JSONL {
		return JSONL, readReviewsJSONL(br, fn)
	}
	return CSV, readReviewsCSV(br, name, fn)
}

// reviewRecord is one JSONL line; rating may be a number or a string.
type reviewRecord struct {
	SKU       string          `json:"sku"`
	Rating    json.RawMessage `json:"rating"`
	Author    string          `json:"author"`
	Title     string          `json:"title"`
	Body      string          `json:"body"`
	CreatedAt string          `json:"created_at"`
}

func readReviewsJSONL(br *bufio.Reader, fn func(reviewRow) error) error {
	for line := 1; ; line++ {
		b, tooLong, err := readLine(br, maxRowBytes)
		if len(b) == 0 && !tooLong && err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		rw := reviewRow{line: line}
		b = bytes.TrimSpace(b)
		var rec reviewRecord
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		switch {
		case tooLong:
			rw.err = fmt.Errorf("the line is longer than %d MiB", maxRowBytes>>20)
		case len(b) == 0:
			continue
		case !utf8.Valid(b):
			rw.err = errors.New("text is not valid UTF-8")
		case dec.Decode(&rec) != nil || dec.More():
			rw.err = errors.New("not a JSON object of " + strings.Join(ReviewColumns, ", "))
		default:
			rating := strings.Trim(string(rec.Rating), `"`)
			rw.in, rw.err = reviewInput(rec.SKU, rating, rec.Author, rec.Title, rec.Body, rec.CreatedAt)
		}
		if err := fn(rw); err != nil {
			return err
		}
	}
}

func readReviewsCSV(br *bufio.Reader, name string, fn func(reviewRow) error) error {
	limit := &rowLimiter{r: br, left: maxRowBytes}
	cr := csv.NewReader(limit)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return fmt.Errorf("%s: %w: cannot read the header row: %v", name, ErrNotReviews, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	for _, c := range ReviewColumns {
		if _, ok := col[c]; !ok && c != "title" {
			return fmt.Errorf("%s: %w: the header has no %q column (columns: %s)", name, ErrNotReviews, c, strings.Join(ReviewColumns, ","))
		}
	}
	for {
		limit.left = maxRowBytes
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		line, _ := cr.FieldPos(0)
		rw := reviewRow{line: line}
		var perr *csv.ParseError
		switch {
		case errors.As(err, &perr):
			rw.line, rw.err = perr.StartLine, fmt.Errorf("malformed CSV: %v", perr.Err)
		case err != nil:
			return err // errRowTooLong included: the next record cannot be found
		default:
			get := func(c string) string {
				if i, ok := col[c]; ok && i < len(rec) {
					return rec[i]
				}
				return ""
			}
			rw.in, rw.err = reviewInput(get("sku"), get("rating"), get("author"), get("title"), get("body"), get("created_at"))
		}
		if err := fn(rw); err != nil {
			return err
		}
	}
}

// reviewInput parses a row's rating and date; the catalog checks the rest.
func reviewInput(sku, rating, author, title, body, createdAt string) (catalog.ReviewInput, error) {
	in := catalog.ReviewInput{SKU: sku, Author: author, Title: title, Body: body}
	if !utf8.ValidString(sku + rating + author + title + body + createdAt) {
		return in, errors.New("text is not valid UTF-8")
	}
	n, err := strconv.Atoi(strings.TrimSpace(rating))
	if err != nil {
		return in, fmt.Errorf("rating %q is not a whole number 1–5", displayText(rating, maxSKURunes))
	}
	in.Rating = n
	at, ok := parseReviewDate(strings.TrimSpace(createdAt))
	if !ok {
		return in, fmt.Errorf("created_at %q is not a date (2026-03-01 or RFC 3339)", displayText(createdAt, maxSKURunes))
	}
	in.CreatedAt = at
	return in, nil
}

func parseReviewDate(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
