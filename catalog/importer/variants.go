package importer

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"shopbot/catalog"
)

// Variants. A row with variant_of is a variant of the product with that
// SKU; a parent must be written before its variants, and may come before
// or after them in the file, or be in the catalog already.
//
// The importer streams, so it never holds the file:
//
//   - A variant whose parent has already been read from the file goes into
//     the current batch (catalog.UpsertProducts writes a batch's plain rows
//     before its variants). A variant whose parent has not been read yet —
//     it may come later, or be in the catalog only — is spilled to a
//     temporary file and imported after the whole file has been read. A
//     file that lists each parent before its variants spills nothing.
//   - A parent row without a price takes its variants' lowest price
//     (catalog.RollupParents). It is never written without a variant in
//     the same transaction — a parent committed alone would sell at 0 —
//     so it is held until its first variant is batched: in memory (at most
//     maxHeld rows, then spilled too). After the file is read, a held
//     parent that no row of the file names as variant_of fails with the
//     usual "missing price"; these errors come after the others.
//   - The parent's option names are the option_names of its row or, when
//     it has none, the keys of its first imported variant's options in the
//     file's order: set on the parent's input when it is in the same
//     batch, else updated in the variant's transaction (a parent that is
//     only in the catalog keeps option names it already has).
//
// Each batch runs catalog.CheckVariants first, in its transaction, so an
// unknown parent, a parent that is a variant, a duplicate option set or
// option names that differ between siblings fail their own row with its
// line; the rest of the batch is written.
//
// Memory: the seen map (one small entry per SKU, as before variants),
// the held parents (at most maxHeld) and, after the file, the spilled
// parents that variants name (one per parent the file lists after its
// variants) are all the importer keeps.

// maxHeld bounds the price-less parents kept in memory while the file is
// read; more are spilled.
const maxHeld = 10_000

// where a price-less parent is.
const (
	inBatch = iota // queued or written
	held           // in imp.held
	spilled        // in the spill file
)

// seenRow is what the importer remembers of a SKU.
type seenRow struct {
	line     int  // of its first row; 0 when only named by a variant so far
	variant  bool // the row is a variant
	noPrice  bool // a parent row without a price
	where    int8 // of a price-less parent
	named    bool // some variant row names it as variant_of
	declared bool // its row gives option_names
	namesSet bool // its option names are settled for this import
}

// route sends a valid row to the batch, the held parents or the spill
// file (see above). noPrice marks a plain row without a price.
func (imp *run) route(p pending) error {
	sku := p.In.SKU
	s := imp.seen[sku]
	if p.In.VariantOf == "" {
		s.noPrice, s.declared, s.namesSet = p.NoPrice, len(p.In.OptionNames) > 0, len(p.In.OptionNames) > 0
		switch {
		case !p.NoPrice:
			s.where = inBatch
			imp.queue(p)
		case !s.named && len(imp.held) < maxHeld:
			s.where = held
			imp.held[sku] = p
		default:
			s.where = spilled
			if err := imp.spill(p); err != nil {
				return err
			}
		}
		imp.seen[sku] = s
		return nil
	}
	imp.seen[sku] = s
	parent, ok := imp.seen[p.In.VariantOf]
	if !ok || parent.line == 0 || (parent.noPrice && parent.where == spilled) {
		parent.named = true
		imp.seen[p.In.VariantOf] = parent
		return imp.spill(p)
	}
	imp.queueVariant(p)
	return nil
}

// queueVariant batches a variant whose parent has been read (or is not in
// the file at all, once the file is read), releasing a held parent.
func (imp *run) queueVariant(p pending) {
	parent := imp.seen[p.In.VariantOf]
	parent.named = true
	imp.seen[p.In.VariantOf] = parent
	switch {
	case parent.line != 0 && parent.variant:
		imp.fail(p.Line, p.In.SKU, fmt.Sprintf("parent %q is itself a variant", p.In.VariantOf))
		return
	case parent.line != 0 && parent.declared && !sameNames(p.Keys, imp.declared(p.In.VariantOf)):
		imp.fail(p.Line, p.In.SKU, fmt.Sprintf("options (%s) differ from the option_names of %q",
			strings.Join(p.Keys, ", "), p.In.VariantOf))
		return
	case parent.noPrice && parent.where == held:
		parent.where = inBatch
		imp.queue(imp.held[p.In.VariantOf])
		delete(imp.held, p.In.VariantOf)
	}
	imp.seen[p.In.VariantOf] = parent
	imp.queue(p)
}

// declared returns the option_names a parent row of this import gave.
func (imp *run) declared(sku string) []string {
	return imp.names[sku]
}

// sameNames compares two option name lists as sets, ignoring case.
func sameNames(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	fold := func(l []string) []string {
		out := make([]string, len(l))
		for i, n := range l {
			out[i] = strings.ToLower(n)
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(fold(a), fold(b))
}

// spill appends a row to the temporary file read after the input.
func (imp *run) spill(p pending) error {
	if imp.spillFile == nil {
		f, err := os.CreateTemp("", "shopbot-import-*.jsonl")
		if err != nil {
			return fmt.Errorf("importer: spill variants: %w", err)
		}
		imp.spillFile, imp.spillW = f, bufio.NewWriter(f)
		imp.spillEnc = json.NewEncoder(imp.spillW)
	}
	if err := imp.spillEnc.Encode(p); err != nil {
		return fmt.Errorf("importer: spill variants: %w", err)
	}
	return nil
}

// closeSpill removes the temporary file, if any.
func (imp *run) closeSpill() {
	if imp.spillFile != nil {
		imp.spillFile.Close()
		os.Remove(imp.spillFile.Name())
		imp.spillFile = nil
	}
}

// finish imports what waited for the end of the file: the spilled rows —
// parents first (pass 1), then variants (pass 2) — and fails the held
// parents no variant was imported with.
func (imp *run) finish(ctx context.Context) error {
	if imp.spillFile != nil {
		if err := imp.spillW.Flush(); err != nil {
			return fmt.Errorf("importer: spill variants: %w", err)
		}
		for _, parents := range []bool{true, false} {
			if err := imp.replay(ctx, parents); err != nil {
				return err
			}
		}
		if err := imp.flush(ctx); err != nil {
			return err
		}
	}
	if imp.sum.Truncated {
		// A preview stopped early: the variants may be past the cut.
		clear(imp.held)
		return nil
	}
	lines := make([]pending, 0, len(imp.held))
	for _, p := range imp.held {
		lines = append(lines, p)
	}
	slices.SortFunc(lines, func(a, b pending) int { return a.Line - b.Line })
	for _, p := range lines {
		msg := reason(errMissingPrice)
		if imp.seen[p.In.SKU].named {
			msg += " (and none of its variants was imported)"
		}
		imp.fail(p.Line, p.In.SKU, msg)
	}
	clear(imp.held)
	return nil
}

// replay reads the spill file once, handling either its parents (held if a
// variant names them, else "missing price") or its variants.
func (imp *run) replay(ctx context.Context, parents bool) error {
	if _, err := imp.spillFile.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("importer: spill variants: %w", err)
	}
	dec := json.NewDecoder(bufio.NewReader(imp.spillFile))
	for {
		var p pending
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return fmt.Errorf("importer: spill variants: %w", err)
		}
		switch isParent := p.In.VariantOf == ""; {
		case parents && isParent:
			if !imp.seen[p.In.SKU].named {
				imp.fail(p.Line, p.In.SKU, reason(errMissingPrice))
				continue
			}
			s := imp.seen[p.In.SKU]
			s.where = held
			imp.seen[p.In.SKU] = s
			imp.held[p.In.SKU] = p
		case !parents && !isParent:
			imp.queueVariant(p)
			if imp.full() {
				if err := imp.flush(ctx); err != nil {
					return err
				}
			}
		}
	}
}

// settleNames gives parents their option names from the first variant of
// each in ins (checked already) whose names are not settled yet: on the
// parent's input when it is in ins, else as an update for the batch's
// transaction. It returns the updates and the parents settled, to be
// marked once the transaction commits.
func (imp *run) settleNames(ins []catalog.ProductInput, keys [][]string) (updates []nameUpdate, settled []string) {
	done := map[string]bool{}
	pos := map[string]int{}
	for j, in := range ins {
		if in.VariantOf == "" {
			pos[in.SKU] = j
		}
	}
	for i, in := range ins {
		if in.VariantOf == "" || done[in.VariantOf] || imp.seen[in.VariantOf].namesSet {
			continue
		}
		done[in.VariantOf] = true
		settled = append(settled, in.VariantOf)
		if j, ok := pos[in.VariantOf]; ok {
			ins[j].OptionNames = keys[i]
		} else {
			updates = append(updates, nameUpdate{sku: in.VariantOf, names: keys[i], onlyIfEmpty: imp.seen[in.VariantOf].line == 0})
		}
	}
	return updates, settled
}

// nameUpdate sets a stored parent's option names.
type nameUpdate struct {
	sku         string
	names       []string
	onlyIfEmpty bool // the parent is not in the file: keep names it has
}
