package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// errReviewsFailed makes `shopbot import-reviews` exit non-zero when a row
// failed.
var errReviewsFailed = errors.New("some reviews were not imported")

// maxReviewLine bounds one JSONL line or CSV record: a review is at most
// catalog.MaxReviewBody characters (4 bytes each at worst) plus its fields.
const maxReviewLine = 4*catalog.MaxReviewBody + 4096

// reviewRow is one row of a reviews file, where it was, and what was wrong
// with it before it reached the catalog ("" when nothing).
type reviewRow struct {
	line int
	in   catalog.ReviewInput
	bad  string
}

// importReviewsCmd adds or updates reviews from a CSV or JSONL file (sku,
// rating, author, title, body, created_at), each row in its own
// transaction with its passage and the product's rating summary: a bad
// row is listed by line and skipped, the others are saved; importing the
// same file again changes nothing.
func importReviewsCmd(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("import-reviews", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	cfg, err := loadConfig(fs, args, e.getenv)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("import-reviews needs exactly one FILE")
	}
	path := fs.Arg(0)
	f, err := os.Open(path)
	if err != nil {
		return usagef("import-reviews: %v", err)
	}
	defer f.Close()
	db, err := openMigrated(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	var imported, updated, failed int
	err = readReviews(path, f, func(r reviewRow) error {
		out, err := importReviewRow(ctx, db, r)
		switch {
		case err != nil && ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			failed++
			fmt.Fprintf(e.stderr, "line %d: %v\n", r.line, err)
		case out == catalog.ReviewCreated:
			imported++
		case out == catalog.ReviewUpdated:
			updated++
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("import-reviews %s: %w", path, err)
	}
	fmt.Fprintf(e.stdout, "imported %d, updated %d, failed %d\n", imported, updated, failed)
	if failed > 0 {
		return fmt.Errorf("%s: %d reviews failed: %w", path, failed, errReviewsFailed)
	}
	return nil
}

func importReviewRow(ctx context.Context, db bun.IDB, r reviewRow) (catalog.ReviewOutcome, error) {
	if r.bad != "" {
		return 0, errors.New(r.bad)
	}
	out, err := catalog.ImportReview(ctx, db, r.in)
	if errors.Is(err, catalog.ErrInvalid) {
		// The catalog's wrapping names the SKU and author; the line number
		// says which row, so keep the reason only.
		_, reason, _ := strings.Cut(err.Error(), catalog.ErrInvalid.Error()+": ")
		return 0, errors.New(reason)
	}
	return out, err
}

// readReviews calls fn with each row of a reviews file, JSONL when the
// name ends in .jsonl, .ndjson or .json or the content starts with "{",
// CSV with a header row otherwise.
func readReviews(path string, r io.Reader, fn func(reviewRow) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(512)
	head = bytes.TrimPrefix(head, []byte("\ufeff"))
	switch ext := strings.ToLower(filepath.Ext(path)); {
	case ext == ".jsonl" || ext == ".ndjson" || ext == ".json",
		ext != ".csv" && bytes.HasPrefix(bytes.TrimSpace(head), []byte("{")):
		return readReviewsJSONL(br, fn)
	}
	return readReviewsCSV(br, fn)
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

func readReviewsJSONL(r io.Reader, fn func(reviewRow) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxReviewLine)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte("\ufeff"))
		}
		if len(b) == 0 {
			continue
		}
		row := reviewRow{line: line}
		var rec reviewRecord
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		switch {
		case !utf8.Valid(b):
			row.bad = "text is not valid UTF-8"
		case dec.Decode(&rec) != nil:
			row.bad = "not a JSON object of sku, rating, author, title, body, created_at"
		default:
			rating := strings.Trim(string(rec.Rating), `"`)
			row.in, row.bad = reviewInput(rec.SKU, rating, rec.Author, rec.Title, rec.Body, rec.CreatedAt)
		}
		if err := fn(row); err != nil {
			return err
		}
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return fmt.Errorf("a line is longer than %d bytes", maxReviewLine)
	}
	return sc.Err()
}

// reviewColumns are the CSV header's names, in any order.
var reviewColumns = []string{"sku", "rating", "author", "title", "body", "created_at"}

func readReviewsCSV(r io.Reader, fn func(reviewRow) error) error {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return fmt.Errorf("read the CSV header: %w", err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))] = i
	}
	for _, c := range reviewColumns {
		if _, ok := col[c]; !ok && c != "title" {
			return fmt.Errorf("the CSV header lacks column %q (want %s)", c, strings.Join(reviewColumns, ", "))
		}
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		line, _ := cr.FieldPos(0)
		row := reviewRow{line: line}
		var perr *csv.ParseError
		switch {
		case errors.As(err, &perr):
			row.line, row.bad = perr.StartLine, "malformed CSV: "+perr.Err.Error()
		case err != nil:
			return err
		default:
			get := func(c string) string {
				if i, ok := col[c]; ok && i < len(rec) {
					return rec[i]
				}
				return ""
			}
			if n := len(strings.Join(rec, "")); n > maxReviewLine {
				row.bad = fmt.Sprintf("the row is %d bytes, more than %d", n, maxReviewLine)
			} else {
				row.in, row.bad = reviewInput(get("sku"), get("rating"), get("author"), get("title"), get("body"), get("created_at"))
			}
		}
		if err := fn(row); err != nil {
			return err
		}
	}
}

// reviewInput parses a row's rating and date; the catalog checks the rest.
func reviewInput(sku, rating, author, title, body, createdAt string) (catalog.ReviewInput, string) {
	in := catalog.ReviewInput{SKU: sku, Author: author, Title: title, Body: body}
	n, err := strconv.Atoi(strings.TrimSpace(rating))
	if err != nil {
		return in, fmt.Sprintf("rating %q is not a whole number 1–5", clipField(rating))
	}
	in.Rating = n
	at, ok := parseReviewDate(strings.TrimSpace(createdAt))
	if !ok {
		return in, fmt.Sprintf("created_at %q is not a date (2026-03-01 or RFC 3339)", clipField(createdAt))
	}
	in.CreatedAt = at
	return in, ""
}

func parseReviewDate(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// clipField keeps an echoed field short and printable.
func clipField(s string) string {
	s = strings.ToValidUTF8(s, "?")
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:39]) + "…"
	}
	return s
}
