package catalog_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestCustomerExportAndErasure: the export holds the customer's profile,
// orders and conversations; erasure keeps the orders (totals, lines) with
// the personal fields cleared, deletes conversations and carts, and
// unlinks the platform identity, so the person's next message makes a
// new customer; an unknown customer is ErrNotFound.
func TestCustomerExportAndErasure(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 1999, 5), product("B-1", 500, 2))
		ann := customer(t, db, "telegram", "77")
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "A-1", 1, ann.ID))
		o, err := order(t, db, ann, "telegram:77:update-9")
		if err != nil {
			t.Fatal(err)
		}
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "B-1", 1, ann.ID))
		conv, err := catalog.OpenConversation(ctx, db, catalog.ConversationKey{Channel: "telegram", ChatID: "77"}, ann.ID)
		if err != nil {
			t.Fatal(err)
		}
		_ = catalog.AppendMessages(ctx, db, conv.ID, &catalog.Message{Role: catalog.RoleUser, Content: "ship to 1 Main St please"})

		x, err := catalog.ExportCustomer(ctx, db, ann.ID, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(x)
		if len(x.Orders) != 1 || len(x.Orders[0].Items) != 1 || len(x.Conversations) != 1 || !strings.Contains(string(b), "ship to 1 Main St") {
			t.Errorf("export = %s", b)
		}
		if _, err := catalog.ExportCustomer(ctx, db, 99999, time.Now()); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("export nobody: %v", err)
		}

		er, err := catalog.ForgetCustomer(ctx, db, ann.ID)
		if err != nil || er.Orders != 1 || er.Conversations != 1 {
			t.Fatalf("forget = %+v, %v", er, err)
		}
		kept, err := catalog.GetOrder(ctx, db, o.Number)
		if err != nil || kept.Total != o.Total || len(kept.Items) != 1 {
			t.Fatalf("the order was not kept: %+v, %v", kept, err)
		}
		if kept.ContactName != "" || kept.Phone != "" || kept.ShippingAddress != "" || kept.ChatID != "" || strings.Contains(kept.IdempotencyKey, "77") {
			t.Errorf("the kept order still has personal fields: %+v", kept)
		}
		if _, err := catalog.GetConversation(ctx, db, conv.ID); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("the conversation survived: %v", err)
		}
		c, _ := catalog.GetCustomer(ctx, db, ann.ID)
		if c.DisplayName != "" || c.Phone != "" || c.PlatformUserID == "77" {
			t.Errorf("customer after erasure = %+v", c)
		}
		if cart, _ := catalog.GetCart(ctx, db, catalog.PersonalCart(ann.ID)); len(cart.Items) != 0 {
			t.Errorf("the cart survived: %+v", cart.Items)
		}
		again := customer(t, db, "telegram", "77")
		if again.ID == ann.ID {
			t.Error("the forgotten identity still maps to the old customer")
		}
		if _, err := catalog.ForgetCustomer(ctx, db, ann.ID); err != nil {
			t.Errorf("forget twice: %v", err)
		}
		if _, err := catalog.ForgetCustomer(ctx, db, 99999); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("forget nobody: %v", err)
		}
	})
}
