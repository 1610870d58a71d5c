package catalog_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestSynonymGroups: a group is normalized and stored once however often
// (and however concurrently) it is added; the version moves on every add
// and delete; each kind of bad input is refused and stores nothing.
func TestSynonymGroups(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		v0, err := catalog.SynonymsVersion(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		ids := make([]int64, 4)
		for i := range ids {
			wg.Go(func() {
				g, err := catalog.AddSynonymGroup(ctx, db, " Sofa ,couch,, COUCH ")
				if err != nil {
					t.Error(err)
				}
				ids[i] = g.ID
			})
		}
		wg.Wait()
		gs, err := catalog.ListSynonymGroups(ctx, db)
		if err != nil || len(gs) != 1 || gs[0].Terms != "couch, sofa" || gs[0].ID != ids[0] || ids[3] != ids[0] {
			t.Fatalf("groups = %+v (ids %v), %v", gs, ids, err)
		}
		if l := gs[0].List(); len(l) != 2 || l[1] != "sofa" {
			t.Errorf("list = %q", l)
		}
		v1, _ := catalog.SynonymsVersion(ctx, db)
		if v1 == v0 {
			t.Errorf("version did not move on add: %s", v1)
		}
		for name, text := range map[string]string{
			"one term":   "sofa",
			"duplicates": "sofa, Sofa",
			"no letters": "sofa, ---",
			"too long":   "sofa, " + strings.Repeat("x", catalog.MaxSynonymTermLen+1),
			"too many":   strings.Repeat("a,", 10) + strings.Repeat("b,", 0) + "c1,c2,c3,c4,c5,c6,c7,c8,c9,c10,c11,c12,c13,c14,c15,c16,c17,c18,c19,c20",
			"empty":      " , ,",
		} {
			if _, err := catalog.AddSynonymGroup(ctx, db, text); !errors.Is(err, catalog.ErrInvalid) {
				t.Errorf("%s: err = %v, want ErrInvalid", name, err)
			}
		}
		if gs, _ := catalog.ListSynonymGroups(ctx, db); len(gs) != 1 {
			t.Errorf("bad input stored something: %+v", gs)
		}
		if err := catalog.DeleteSynonymGroup(ctx, db, gs[0].ID); err != nil {
			t.Fatal(err)
		}
		if err := catalog.DeleteSynonymGroup(ctx, db, gs[0].ID); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("second delete: %v", err)
		}
		if v2, _ := catalog.SynonymsVersion(ctx, db); v2 == v1 {
			t.Errorf("version did not move on delete: %s", v2)
		}
	})
}
