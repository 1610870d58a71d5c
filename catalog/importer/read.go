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

// newRowReader detects the format (by extension, else by content) and
// rejects binary data before any row is read.
func newRowReader(r io.Reader, name string) (rowReader, Format, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		_, _ = br.Discard(3)
	}
	head, err := br.Peek(sniffSize)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, "", fmt.Errorf("read %s: %w", name, err)
	}
	if bytes.IndexByte(head, 0) >= 0 || !validUTF8Prefix(head) {
		return nil, "", fmt.Errorf("%s: %w (it contains binary data)", name, ErrNotTabular)
	}
	if len(bytes.TrimSpace(head)) == 0 {
		return nil, "", fmt.Errorf("%s: %w (it is empty)", name, ErrNotTabular)
	}
	format := detect(name, head)
	if format == JSONL {
		return &jsonlReader{r: br}, format, nil
	}
	cr, err := newCSVReader(br, name)
	return cr, format, err
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
		b, err := j.r.ReadBytes('\n')
		if len(b) == 0 && err != nil {
			return row{}, err
		}
		j.line++
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			if err == io.EOF {
				return row{}, io.EOF
			}
			continue
		}
		r := row{line: j.line}
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

type csvReader struct {
	r     *csv.Reader
	index map[string]int
}

func newCSVReader(r io.Reader, name string) (*csvReader, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w: cannot read the header row: %v", name, ErrNotTabular, err)
	}
	index := map[string]int{}
	for i, h := range header {
		col := strings.ToLower(strings.TrimSpace(h))
		if !slices.Contains(Columns, col) {
			return nil, fmt.Errorf("%s: %w: unknown column %q in the header (columns: %s)",
				name, ErrNotTabular, truncate(h, 40), strings.Join(Columns, ","))
		}
		index[col] = i
	}
	for _, need := range []string{"sku", "title", "price"} {
		if _, ok := index[need]; !ok {
			return nil, fmt.Errorf("%s: %w: the header has no %q column (columns: %s)",
				name, ErrNotTabular, need, strings.Join(Columns, ","))
		}
	}
	return &csvReader{r: cr, index: index}, nil
}

func (c *csvReader) next() (row, error) {
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
		Category: get("category"), Price: Text(get("price")), Currency: get("currency"),
		Stock: Text(get("stock")), ImageURL: get("image_url"),
	}}
	if len(fields) != len(c.index) {
		r.err = fmt.Errorf("has %d fields, the header has %d", len(fields), len(c.index))
	} else if a := get("attributes"); a != "" {
		r.rec.Attributes = new(Attributes)
		if err := json.Unmarshal([]byte(a), r.rec.Attributes); err != nil {
			r.err = fmt.Errorf("attributes: %v", err)
		}
	}
	return r, nil
}
