package importer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"shopbot/catalog"
)

// outcome of writing some rows in one transaction, applied to the run
// only once the transaction has committed.
type written struct {
	res     catalog.UpsertResult
	same    int          // dry run: rows identical to the catalog
	changes []Change     // dry run: title, price and stock changes
	failed  []rowFailure // rows catalog.CheckVariants refused
	rehold  []pending    // price-less parents left without a variant
	settled []string     // parents whose option names were set
}

type rowFailure struct {
	p   pending
	err error
}

// flush writes the batch in one transaction. If the database rejects it,
// each row is retried alone (a variant with its price-less parent) so
// only the offending ones fail.
func (imp *run) flush(ctx context.Context) error {
	if len(imp.batch) == 0 {
		return nil
	}
	defer func() { imp.batch, imp.listed = imp.batch[:0], 0 }()
	w, err := imp.write(ctx, imp.batch)
	if err == nil {
		imp.apply(w)
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	waiting := map[string]pending{} // price-less parents not written yet
	for _, p := range imp.batch {
		if p.NoPrice {
			waiting[p.In.SKU] = p
		}
	}
	for _, p := range imp.batch {
		if p.NoPrice {
			continue
		}
		unit := []pending{p}
		parent, withParent := waiting[p.In.VariantOf]
		if withParent {
			unit = []pending{parent, p}
		}
		w, err := imp.write(ctx, unit)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			imp.fail(p.Line, p.In.SKU, reason(err))
			continue
		}
		if withParent && !pendingIn(w.rehold, parent.In.SKU) {
			delete(waiting, parent.In.SKU)
		}
		w.rehold = nil
		imp.apply(w)
	}
	for _, p := range waiting {
		imp.hold(p)
	}
	return nil
}

func pendingIn(ps []pending, sku string) bool {
	for _, p := range ps {
		if p.In.SKU == sku {
			return true
		}
	}
	return false
}

// write checks and upserts rows in one transaction: plain rows first,
// then variants; a variant refused by catalog.CheckVariants is left out,
// and so is a price-less parent none of whose variants remains.
func (imp *run) write(ctx context.Context, ps []pending) (written, error) {
	ordered := make([]pending, 0, len(ps))
	for _, variants := range []bool{false, true} {
		for _, p := range ps {
			if (p.In.VariantOf != "") == variants {
				ordered = append(ordered, p)
			}
		}
	}
	var w written
	err := imp.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		w = written{}
		if err := noJIT(ctx, tx); err != nil {
			return err
		}
		if imp.opts.DryRun {
			if err := imp.standIns(ctx, tx, ordered); err != nil {
				return err
			}
		}
		ins := make([]catalog.ProductInput, len(ordered))
		for i, p := range ordered {
			ins[i] = p.In
		}
		errs, err := catalog.CheckVariants(ctx, tx, ins)
		if err != nil {
			return err
		}
		kept, keys := w.keep(ordered, errs)
		var res catalog.UpsertResult
		if imp.opts.DryRun {
			if res, w.same, w.changes, err = diff(ctx, tx, w.kept(ordered, errs)); err != nil {
				return err
			}
		}
		var updates []nameUpdate
		updates, w.settled = imp.settleNames(kept, keys)
		if w.res, err = catalog.UpsertProducts(ctx, tx, kept); err != nil {
			return err
		}
		if err := setOptionNames(ctx, tx, updates); err != nil {
			return err
		}
		if imp.opts.DryRun {
			w.res = res
			return errDryRun // roll back
		}
		return nil
	})
	if errors.Is(err, errDryRun) {
		err = nil
	}
	return w, err
}

// kept is the rows keep keeps, as pending rows.
func (w *written) kept(ordered []pending, errs []error) []pending {
	var out []pending
	for i, p := range ordered {
		if errs[i] == nil && !pendingIn(w.rehold, p.In.SKU) {
			out = append(out, p)
		}
	}
	return out
}

// noJIT turns Postgres's JIT compilation off for a batch. A bulk import
// into a table whose statistics lag behind (a fresh catalog grows from
// nothing in one import) makes the planner overestimate the batch's
// statements — the parents' rollup most — and compile each one, about
// 1.5 s a batch for a few milliseconds of work.
func noJIT(ctx context.Context, tx bun.Tx) error {
	if tx.Dialect().Name() != dialect.PG {
		return nil
	}
	if _, err := tx.ExecContext(ctx, "SET LOCAL jit = off"); err != nil {
		return fmt.Errorf("importer: %w", err)
	}
	return nil
}

// keep sorts checked rows into those to write (with the option names of
// each in file order) and those refused or held back.
func (w *written) keep(ordered []pending, errs []error) ([]catalog.ProductInput, [][]string) {
	named := map[string]bool{}
	for i, p := range ordered {
		if errs[i] != nil {
			w.failed = append(w.failed, rowFailure{p, errs[i]})
		} else if p.In.VariantOf != "" {
			named[p.In.VariantOf] = true
		}
	}
	var kept []catalog.ProductInput
	var keys [][]string
	for i, p := range ordered {
		switch {
		case errs[i] != nil:
		case p.NoPrice && !named[p.In.SKU]:
			w.rehold = append(w.rehold, p)
		default:
			kept = append(kept, p.In)
			keys = append(keys, p.Keys)
		}
	}
	return kept, keys
}

// apply counts a committed write.
func (imp *run) apply(w written) {
	imp.sum.Imported += w.res.Inserted
	imp.sum.Updated += w.res.Updated
	imp.sum.Unchanged += w.same
	if room := MaxChanges - len(imp.sum.Changes); room > 0 {
		imp.sum.Changes = append(imp.sum.Changes, w.changes[:min(room, len(w.changes))]...)
	}
	for _, f := range w.failed {
		imp.fail(f.p.Line, f.p.In.SKU, reason(f.err))
	}
	for _, p := range w.rehold {
		imp.hold(p)
	}
	for _, sku := range w.settled {
		s := imp.seen[sku]
		s.namesSet = true
		imp.seen[sku] = s
	}
}

// hold keeps a price-less parent for a later variant.
func (imp *run) hold(p pending) {
	s := imp.seen[p.In.SKU]
	s.where = held
	imp.seen[p.In.SKU] = s
	imp.held[p.In.SKU] = p
}

// setOptionNames writes parents' option names (see settleNames).
func setOptionNames(ctx context.Context, tx bun.Tx, updates []nameUpdate) error {
	for _, u := range updates {
		b, err := json.Marshal(u.names)
		if err != nil {
			return err
		}
		q := tx.NewUpdate().Model((*catalog.Product)(nil)).Set("option_names = ?", string(b)).Where("sku = ?", u.sku)
		if u.onlyIfEmpty {
			q = q.Where("option_names = '[]'")
		}
		if _, err := q.Exec(ctx); err != nil {
			return fmt.Errorf("importer: option names of %s: %w", u.sku, err)
		}
	}
	return nil
}
