package importer

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// ErrNotTabular reports a file that is neither CSV nor JSONL.
var ErrNotTabular = errors.New("not a CSV or JSONL product file")

// Format of an import file.
type Format string

const (
	CSV   Format = "csv"
	JSONL Format = "jsonl"
)

// row is one record read from a file, or the reason it could not be read.
type row struct {
	line int
	rec  Record
	err  error
}

// rowReader yields rows until io.EOF.
type rowReader interface {
	next() (row, error)
}

// sniffSize is how much of the file is inspected before reading rows.
const sniffSize = 8 << 10

// maxRowBytes bounds one row (a JSONL line, a CSV record), so memory stays
// flat whatever the file holds: a product row is a few kilobytes, and an
// unclosed CSV quote must not swallow the rest of the file into memory.
const maxRowBytes = 8 << 20

// errRowTooLong stops a CSV file whose record runs past maxRowBytes: the
// CSV reader cannot find the next record after it reliably.
var errRowTooLong = fmt.Errorf("a row is longer than %d MiB (an unclosed quote?)", maxRowBytes>>20)

// newRowReader detects the format (JSONL by extension or content, else
// the header row or XML, detect.go) and rejects binary data before any row
// is read.
func newRowReader(r io.Reader, name string, cfg readConfig) (rowReader, Format, error) {
	br, head, err := openText(r, name, ErrNotTabular)
	if err != nil {
		return nil, "", err
	}
	format := detect(name, head)
	if format == JSONL {
		return &jsonlReader{r: br}, format, nil
	}
	return openTabular(br, name, head, cfg)
}

// openText is the opening every import file kind shares: it skips a
// UTF-8 byte order mark and rejects binary data and empty files (wrapping
// notText, the kind's sentinel) before any row is read. head is the
// sniffed start of the text, for format detection.
func openText(r io.Reader, name string, notText error) (br *bufio.Reader, head []byte, err error) {
	br = bufio.NewReaderSize(r, 64<<10)
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		_, _ = br.Discard(3)
	}
	head, err = br.Peek(sniffSize)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, nil, fmt.Errorf("read %s: %w", name, err)
	}
	if binary(head) || !validUTF8Prefix(head) {
		return nil, nil, fmt.Errorf("%s: %w (it contains binary data)", name, notText)
	}
	if len(bytes.TrimSpace(head)) == 0 {
		return nil, nil, fmt.Errorf("%s: %w (it is empty)", name, notText)
	}
	return br, head, nil
}

// binary reports data that is not text: more than one control byte (NUL
// and the like; tab and line breaks aside) in a hundred. A stray NUL in a
// text file is stripped from its row instead (see text.go).
func binary(head []byte) bool {
	n := 0
	for _, b := range head {
		if (b < 0x20 && b != '\t' && b != '\n' && b != '\r') || b == 0x7f {
			n++
		}
	}
	return n > len(head)/100
}

// validUTF8Prefix allows a rune cut off at the end of the sniffed bytes.
func validUTF8Prefix(b []byte) bool {
	for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
		if utf8.Valid(b) {
			return true
		}
		b = b[:len(b)-1]
	}
	return utf8.Valid(b)
}

func detect(name string, head []byte) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jsonl", ".ndjson", ".json":
		return JSONL
	case ".csv":
		return CSV
	}
	if t := bytes.TrimSpace(head); len(t) > 0 && t[0] == '{' {
		return JSONL
	}
	return CSV
}

type jsonlReader struct {
	r    *bufio.Reader
	line int
}

func (j *jsonlReader) next() (row, error) {
	for {
		b, tooLong, err := readLine(j.r, maxRowBytes)
		if len(b) == 0 && !tooLong && err != nil {
			return row{}, err
		}
		j.line++
		r := row{line: j.line}
		if tooLong {
			r.err = fmt.Errorf("the line is longer than %d MiB", maxRowBytes>>20)
			return r, nil
		}
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			if err == io.EOF {
				return row{}, io.EOF
			}
			continue
		}
		if !utf8.Valid(b) {
			var named struct{ SKU string } // for the report only
			_ = json.Unmarshal(bytes.ToValidUTF8(b, []byte("\uFFFD")), &named)
			r.rec.SKU, r.err = named.SKU, errNotUTF8("")
			return r, nil
		}
		// Raw control characters are invalid JSON: strip them like the
		// escaped ones (a raw tab becomes a space).
		if needsCleaning(b) {
			b = []byte(cleanField(string(b), false))
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if derr := dec.Decode(&r.rec); derr != nil {
			r.err = fmt.Errorf("invalid JSON: %v", derr)
		} else if dec.More() {
			r.err = errors.New("invalid JSON: more than one value on the line")
		}
		return r, nil
	}
}

// readLine reads up to and including the next '\n'. A line over max bytes
// is consumed without being kept and reported as tooLong.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err != bufio.ErrBufferFull {
			return line, tooLong, err
		}
	}
}

func errNotUTF8(field string) error {
	if field != "" {
		return fmt.Errorf("the %s field is not valid UTF-8 text (save the file as UTF-8)", field)
	}
	return errors.New("the line is not valid UTF-8 text (save the file as UTF-8)")
}

type csvReader struct {
	r      *csv.Reader
	limit  *rowLimiter
	index  map[string]int
	names  []string // column name by field position
	header []string // as written
}

// newOwnCSVReader reads Shopbot's own CSV format from t, whose header has
// been read. Columns of no known name are ignored (and reported); sku,
// title and price are required.
func newOwnCSVReader(t *tabular, name string) (*csvReader, error) {
	index := map[string]int{}
	names := make([]string, len(t.header))
	for i, h := range t.header {
		col := strings.ToLower(strings.TrimSpace(h))
		names[i] = col
		if slices.Contains(Columns, col) {
			index[col] = i
		}
	}
	for _, need := range []string{"sku", "title", "price"} {
		if _, ok := index[need]; !ok {
			return nil, fmt.Errorf("%s: %w: the header has no %q column (Shopbot columns: %s; or a Shopify, WooCommerce or Google Merchant Center export)",
				name, ErrNotTabular, need, strings.Join(Columns, ","))
		}
	}
	return &csvReader{r: t.r, limit: t.limit, index: index, names: names, header: t.header}, nil
}

func (c *csvReader) mapping() Mapping {
	return mapColumns(c.header, func(col string) string {
		if slices.Contains(Columns, col) {
			return col
		}
		return ""
	})
}

func (c *csvReader) next() (row, error) {
	c.limit.left = maxRowBytes
	fields, err := c.r.Read()
	if err == io.EOF {
		return row{}, io.EOF
	}
	line, _ := c.r.FieldPos(0)
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return row{line: pe.StartLine, err: fmt.Errorf("malformed CSV: %v", pe.Err)}, nil
	}
	if err != nil {
		return row{}, err
	}
	get := func(col string) string {
		if i, ok := c.index[col]; ok && i < len(fields) {
			return strings.TrimSpace(fields[i])
		}
		return ""
	}
	r := row{line: line, rec: Record{
		SKU: get("sku"), Title: get("title"), Description: get("description"), Brand: get("brand"),
		Category: get("category"), Price: Text(get("price")), CompareAt: Text(get("compare_at_price")), Currency: get("currency"),
		Stock: Text(get("stock")), ImageURL: get("image_url"), VariantOf: get("variant_of"),
	}}
	if col, bad := invalidUTF8(c.names, fields); bad {
		r.rec = Record{SKU: r.rec.SKU}
		r.err = errNotUTF8(col)
	} else if len(fields) != len(c.names) {
		r.err = fmt.Errorf("has %d fields, the header has %d", len(fields), len(c.names))
	} else if a := get("attributes"); a != "" {
		r.rec.Attributes = new(Attributes)
		if err := json.Unmarshal([]byte(cleanField(a, false)), r.rec.Attributes); err != nil {
			r.err = fmt.Errorf("attributes: %v", err)
		}
	}
	if r.err == nil {
		r.err = c.optionCells(&r.rec, get("options"), get("option_names"))
	}
	return r, nil
}

// optionCells reads the JSON cells of the variant columns into rec.
func (c *csvReader) optionCells(rec *Record, opts, names string) error {
	if opts != "" {
		rec.Options = new(OptionValues)
		if err := decodeCell("options", opts, rec.Options); err != nil {
			return err
		}
	}
	if names != "" {
		rec.OptionNames = new(NameList)
		if err := decodeCell("option_names", names, rec.OptionNames); err != nil {
			return err
		}
	}
	return nil
}

// rowLimiter fails a read once a CSV record has taken maxRowBytes; the
// reader resets left before each record.
type rowLimiter struct {
	r    io.Reader
	left int
}

func (l *rowLimiter) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, errRowTooLong
	}
	if len(p) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= n
	return n, err
}
