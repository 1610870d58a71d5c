package catalog_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestAuditPendingEntries: an entry begun is pending until confirmed; a
// dropped one is gone; a confirmed one cannot be dropped; bad entries and
// unknown ids are refused.
func TestAuditPendingEntries(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
		if err := catalog.BeginAudit(ctx, db, &catalog.AuditEntry{At: at, Action: "order.status"}); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("entry without a user: err = %v, want ErrInvalid", err)
		}
		kept := &catalog.AuditEntry{At: at, Username: "ann", Action: "order.status", Subject: "A-1", Detail: "status=paid"}
		dropped := &catalog.AuditEntry{At: at, Username: "ann", Action: "order.cancel", Subject: "A-2"}
		crashed := &catalog.AuditEntry{At: at, Username: "ann", Action: "order.refund", Subject: "A-3"}
		for _, e := range []*catalog.AuditEntry{kept, dropped, crashed} {
			if err := catalog.BeginAudit(ctx, db, e); err != nil {
				t.Fatal(err)
			}
		}
		if err := catalog.ConfirmAudit(ctx, db, kept.ID); err != nil {
			t.Fatal(err)
		}
		if err := catalog.DropAudit(ctx, db, dropped.ID); err != nil {
			t.Fatal(err)
		}
		if err := catalog.DropAudit(ctx, db, kept.ID); err != nil {
			t.Fatal(err)
		}
		if err := catalog.ConfirmAudit(ctx, db, dropped.ID); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("confirm a dropped entry: err = %v, want ErrNotFound", err)
		}
		es, err := catalog.ListAudit(ctx, db, catalog.AuditFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(es) != 2 || es[0].ID != crashed.ID || !es[0].Pending || es[1].ID != kept.ID || es[1].Pending {
			t.Fatalf("entries = %+v, want the unconfirmed refund and the confirmed status change", es)
		}
	})
}
