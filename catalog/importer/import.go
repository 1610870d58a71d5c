package importer

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// DefaultMaxErrors is how many row errors an import keeps by default.
const DefaultMaxErrors = 1000

// progressRows is how often, in rows read, Progress is called when no
// batch is written (a file of bad rows writes none).
const progressRows = 1000

// Options tune an import.
type Options struct {
	// BatchSize is how many products one transaction writes, counted as
	// lists show them: plain rows and parents; a parent's variants ride
	// along (up to 5 × BatchSize rows in all). Default 1000.
	BatchSize       int
	DefaultCurrency string // for rows without a currency; default USD
	// MaxErrors is how many row errors Summary.Errors keeps (the first
	// ones, in file order); the rest are only counted. Default 1000.
	MaxErrors int
	// Progress, when set, is called after each batch and every 1,000 rows
	// read, from the importing goroutine.
	Progress func(Progress)
	// InStockQuantity is the stock of an item a file marks in stock
	// without a quantity (a Merchant Center feed, WooCommerce's In stock?,
	// an untracked Shopify variant). Default 100.
	InStockQuantity int
	// DryRun reads, maps and checks the whole file against the catalog
	// and reports what an import would do, writing nothing (dryrun.go).
	DryRun bool
	// MaxRows, when set, stops after that many rows (Summary.Truncated):
	// a preview of a large file.
	MaxRows int
	// Seen, when set, is called with the SKU of every product row read
	// (plain, parent or variant, valid or not), whatever the file's
	// format: a feed archives what its file no longer names (feed.go).
	Seen func(sku string)
}

// withDefaults fills the options left zero.
func (o Options) withDefaults() Options {
	if o.BatchSize <= 0 {
		o.BatchSize = 1000
	}
	if o.DefaultCurrency == "" {
		o.DefaultCurrency = "USD"
	}
	if o.MaxErrors <= 0 {
		o.MaxErrors = DefaultMaxErrors
	}
	if o.InStockQuantity <= 0 {
		o.InStockQuantity = 100
	}
	return o
}

// Progress is a snapshot of a running import.
type Progress struct {
	BytesRead int64 // bytes of the file consumed so far
	// Summary is the counts so far. Its Errors share the import's slice:
	// they may be read during the call, never modified.
	Summary Summary
}

// RowError is a row that was not written, and why. SKU is the row's key:
// the SKU of a product or review row, the file name of a page (Line 0).
type RowError struct {
	Line   int
	SKU    string
	Reason string
}

func (e RowError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.SKU, e.Reason)
	}
	if e.SKU != "" {
		return fmt.Sprintf("line %d (sku %s): %s", e.Line, e.SKU, e.Reason)
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Reason)
}

// Summary is the outcome of an import.
type Summary struct {
	Format   Format
	Rows     int // rows read (blank lines aside)
	Imported int // new products
	Updated  int // existing SKUs replaced
	Failed   int // every row not written
	// Errors are the first Options.MaxErrors failed rows in file order,
	// each with its SKU and reason cut to a few dozen characters.
	Errors []RowError

	// Mapping is how the file's columns map onto catalog fields, with the
	// columns ignored.
	Mapping Mapping
	// Sample is the first SampleRows valid rows as they would be written.
	Sample []SampleRow
	// DryRun marks the summary of a dry run: Imported counts new
	// products, Updated those that would change, Unchanged the rest, and
	// Changes lists the first MaxChanges title, price and stock changes.
	DryRun    bool
	Unchanged int
	Changes   []Change
	// Truncated is set when Options.MaxRows stopped the import early.
	Truncated bool
}

func (s Summary) String() string {
	if s.DryRun {
		return fmt.Sprintf("dry run: %d new, %d changed, %d unchanged, %d refused", s.Imported, s.Updated, s.Unchanged, s.Failed)
	}
	return fmt.Sprintf("imported %d, updated %d, failed %d", s.Imported, s.Updated, s.Failed)
}

// MoreErrors is how many failed rows are counted but not in Errors.
func (s Summary) MoreErrors() int { return s.Failed - len(s.Errors) }

// Import reads products from r (name is used for format detection and
// messages) and upserts them by SKU. It returns an error only when the file
// cannot be read as products at all or the database fails; bad rows are in
// the Summary.
func Import(ctx context.Context, db *bun.DB, r io.Reader, name string, opts Options) (Summary, error) {
	opts = opts.withDefaults()
	counter := &countingReader{r: r}
	rows, format, err := newRowReader(counter, name, readConfig{inStock: opts.InStockQuantity})
	if err != nil {
		return Summary{}, err
	}
	imp := &run{db: db, opts: opts, sum: Summary{Format: format, DryRun: opts.DryRun}, seen: map[string]seenRow{},
		held: map[string]pending{}, names: map[string][]string{}}
	defer imp.closeSpill()
	sum, err := imp.read(ctx, rows, counter, name)
	if m, ok := rows.(mapper); ok {
		sum.Mapping = m.mapping()
	}
	return sum, err
}

// read imports the rows.
func (imp *run) read(ctx context.Context, rows rowReader, counter *countingReader, name string) (Summary, error) {
	for {
		if imp.opts.MaxRows > 0 && imp.sum.Rows >= imp.opts.MaxRows {
			imp.sum.Truncated = true
			break
		}
		rw, err := rows.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return imp.sum, fmt.Errorf("read %s: %w", name, err)
		}
		imp.sum.Rows++
		if err := imp.add(rw); err != nil {
			return imp.sum, err
		}
		if imp.full() {
			if err := imp.flush(ctx); err != nil {
				return imp.sum, err
			}
			imp.progress(counter.n)
		} else if imp.sum.Rows%progressRows == 0 {
			if err := ctx.Err(); err != nil {
				return imp.sum, err
			}
			imp.progress(counter.n)
		}
	}
	if err := imp.flush(ctx); err != nil {
		return imp.sum, err
	}
	if err := imp.finish(ctx); err != nil {
		return imp.sum, err
	}
	imp.progress(counter.n)
	return imp.sum, nil
}

// run is the state of one import.
type run struct {
	db     *bun.DB
	opts   Options
	sum    Summary
	seen   map[string]seenRow // by sku (variants.go)
	batch  []pending
	listed int                 // plain rows and parents in batch
	held   map[string]pending  // price-less parents waiting for a variant
	names  map[string][]string // option_names of parent rows that give them

	spillFile *os.File // rows waiting for the end of the file
	spillW    *bufio.Writer
	spillEnc  *json.Encoder
}

// queue adds a row to the batch.
func (imp *run) queue(p pending) {
	imp.batch = append(imp.batch, p)
	if p.In.VariantOf == "" {
		imp.listed++
	}
}

// full reports a batch to write: BatchSize products, variants aside, or
// 5 × BatchSize rows. Per-batch work (a transaction, category lookups,
// the parents' rollup) is paid per product listed, so a catalog of 4
// variants a product imports as fast per product as a plain one.
func (imp *run) full() bool {
	return imp.listed >= imp.opts.BatchSize || len(imp.batch) >= 5*imp.opts.BatchSize
}

// pending is a valid row waiting to be written. It is spilled as JSON.
type pending struct {
	Line    int                  `json:"l"`
	In      catalog.ProductInput `json:"in"`
	Keys    []string             `json:"k,omitempty"`  // a variant's option names in file order
	NoPrice bool                 `json:"np,omitempty"` // a parent row without a price
}

func (imp *run) progress(n int64) {
	if imp.opts.Progress != nil {
		imp.opts.Progress(Progress{BytesRead: n, Summary: imp.sum})
	}
}

// fail counts a row that is not written and keeps the first MaxErrors,
// their text made safe and short to echo.
func (imp *run) fail(line int, sku, reason string) {
	imp.sum.Failed++
	if len(imp.sum.Errors) < imp.opts.MaxErrors {
		imp.sum.Errors = append(imp.sum.Errors, RowError{
			Line: line, SKU: displayText(sku, maxSKURunes), Reason: displayText(reason, maxReasonRunes)})
	}
}

// add validates a row and routes it (variants.go) towards a batch. Only
// a failed spill write is returned.
func (imp *run) add(rw row) error {
	imp.see(rw.rec.SKU)
	if rw.err != nil {
		imp.fail(rw.line, rw.rec.SKU, rw.err.Error())
		return nil
	}
	in, err := rw.rec.Input(imp.opts.DefaultCurrency)
	noPrice := errors.Is(err, errMissingPrice) && in.VariantOf == ""
	if err != nil && !noPrice {
		imp.fail(rw.line, in.SKU, reason(err))
		return nil
	}
	s, ok := imp.seen[in.SKU]
	if ok && s.line != 0 {
		imp.fail(rw.line, in.SKU, fmt.Sprintf("duplicate sku (first seen on line %d)", s.line))
		return nil
	}
	s.line, s.variant = rw.line, in.VariantOf != ""
	imp.seen[in.SKU] = s
	p := pending{Line: rw.line, In: in, NoPrice: noPrice}
	if rw.rec.Options != nil {
		p.Keys = rw.rec.Options.Names
	}
	imp.sample(p)
	if len(in.OptionNames) > 0 {
		imp.names[in.SKU] = in.OptionNames
	}
	return imp.route(p)
}

// reason turns a validation error into the text shown next to the line.
func reason(err error) string {
	msg := err.Error()
	if errors.Is(err, catalog.ErrInvalid) {
		// "invalid input: price ..." reads better without the prefix.
		if rest, ok := strings.CutPrefix(msg, catalog.ErrInvalid.Error()+": "); ok {
			return rest
		}
	}
	return msg
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
