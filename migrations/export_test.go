package migrations

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// MigrateTo applies the migrations up to version, so a test can put rows
// in an old schema and then migrate them.
func MigrateTo(ctx context.Context, db *bun.DB, version int) error {
	if _, err := db.NewCreateTable().Model((*schemaMigration)(nil)).IfNotExists().Exec(ctx); err != nil {
		return err
	}
	known, err := List(db.Dialect().Name())
	if err != nil {
		return err
	}
	if version > len(known) {
		return fmt.Errorf("no migration %d", version)
	}
	for _, m := range known[:version] {
		if err := apply(ctx, db, m); err != nil {
			return err
		}
	}
	return nil
}
