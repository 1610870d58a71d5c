package sandbox

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// table is one table Clone copies, in an order that inserts what is
// referred to before what refers to it.
type table struct {
	name string
	key  string   // ordering column, so reads are repeatable
	omit []string // columns left to their default (NULL)
}

var tables = []table{
	{name: "categories", key: "id"},
	{name: "products", key: "id"},
	{name: "reviews", key: "id", omit: []string{"customer_id"}},
	{name: "pages", key: "id"},
	{name: "passages", key: "id"},
	{name: "settings", key: "key"},
}

// batchRows is how many rows one INSERT carries.
const batchRows = 500

// column is a column of the target table and whether it holds bytes.
type column struct {
	name string
	blob bool
}

// copyTable copies tb's shared columns from src into dst and returns the
// number of rows copied.
func copyTable(ctx context.Context, src bun.IDB, dst bun.Tx, tb table) (int, error) {
	have, err := sourceColumns(ctx, src, tb.name)
	if err != nil {
		return 0, err
	}
	if len(have) == 0 {
		return 0, fmt.Errorf("sandbox: the source database has no table %s (run shopbot migrate)", tb.name)
	}
	want, err := targetColumns(ctx, dst, tb.name)
	if err != nil {
		return 0, err
	}
	var cols []column
	for _, c := range want {
		if slices.Contains(have, c.name) && !slices.Contains(tb.omit, c.name) {
			cols = append(cols, c)
		}
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	rows, err := src.NewSelect().TableExpr("?", bun.Ident(tb.name)).Column(names...).
		OrderExpr("?", bun.Ident(tb.key)).Rows(ctx)
	if err != nil {
		return 0, fmt.Errorf("sandbox: read %s: %w", tb.name, err)
	}
	defer rows.Close()
	n := 0
	idents := make([]bun.Ident, len(names))
	for i, n := range names {
		idents[i] = bun.Ident(n)
	}
	batch := make([]bun.TupleValues, 0, batchRows)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		_, err := dst.NewRaw("INSERT INTO ? (?) VALUES ?", bun.Ident(tb.name), bun.List(idents), bun.List(batch)).Exec(ctx)
		if err != nil {
			return fmt.Errorf("sandbox: write %s: %w", tb.name, err)
		}
		n += len(batch)
		batch = batch[:0]
		return nil
	}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return 0, fmt.Errorf("sandbox: read %s: %w", tb.name, err)
		}
		for i, c := range cols {
			vals[i] = textual(vals[i], c.blob)
		}
		if batch = append(batch, bun.Tuple(vals)); len(batch) == batchRows {
			if err := flush(); err != nil {
				return 0, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("sandbox: read %s: %w", tb.name, err)
	}
	return n, flush()
}

// textual turns the bytes a driver returns for text (Postgres JSONB, for
// one) into a string, which SQLite stores as TEXT rather than a BLOB that
// JSON functions and string scans would not read the same.
// A NULL becomes the SQL keyword: bun cannot format an untyped nil in a
// list.
func textual(v any, blob bool) any {
	switch b := v.(type) {
	case nil:
		return bun.Safe("NULL")
	case []byte:
		if !blob {
			return string(b)
		}
	}
	return v
}

// sourceColumns lists a table's columns in the source, none if it has no
// such table.
func sourceColumns(ctx context.Context, db bun.IDB, name string) ([]string, error) {
	var cols []string
	var err error
	switch db.Dialect().Name() {
	case dialect.PG:
		err = db.NewSelect().ColumnExpr("column_name").TableExpr("information_schema.columns").
			Where("table_schema = current_schema()").Where("table_name = ?", name).
			OrderExpr("ordinal_position").Scan(ctx, &cols)
	case dialect.SQLite:
		err = db.NewSelect().ColumnExpr("name").TableExpr("pragma_table_info(?)", name).Scan(ctx, &cols)
	default:
		err = errors.New("unsupported dialect " + db.Dialect().Name().String())
	}
	if err != nil {
		return nil, fmt.Errorf("sandbox: columns of %s: %w", name, err)
	}
	return cols, nil
}

// targetColumns lists a table's columns in the SQLite template.
func targetColumns(ctx context.Context, db bun.IDB, name string) ([]column, error) {
	var info []struct {
		Name string `bun:"name"`
		Type string `bun:"type"`
	}
	if err := db.NewSelect().ColumnExpr("name, type").TableExpr("pragma_table_info(?)", name).Scan(ctx, &info); err != nil {
		return nil, fmt.Errorf("sandbox: columns of %s in the template: %w", name, err)
	}
	cols := make([]column, len(info))
	for i, c := range info {
		cols[i] = column{name: c.Name, blob: strings.EqualFold(c.Type, "BLOB")}
	}
	return cols, nil
}
