package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestCustomerCommand: `shopbot customer export ID` prints the customer's
// data as JSON and `forget ID` erases it, on both databases; an unknown
// customer, a bad id or verb is an error that changes nothing.
func TestCustomerCommand(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: "telegram", PlatformUserID: "5150", DisplayName: "Zoe Quinn"})
		if err != nil {
			t.Fatal(err)
		}
		conv, _ := catalog.OpenConversation(ctx, db, catalog.ConversationKey{Channel: "telegram", ChatID: "5150"}, c.ID)
		_ = catalog.AppendMessages(ctx, db, conv.ID, &catalog.Message{Role: catalog.RoleUser, Content: "my phone is +1 555 0199"})
		dbURL := databaseURLOf(t, db)
		id := itoaID(c.ID)
		var out bytes.Buffer
		if err := run(ctx, []string{"customer", "export", "--database-url", dbURL, id}, envFunc(nil), nil, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		var x catalog.CustomerExport
		if err := json.Unmarshal(out.Bytes(), &x); err != nil || x.Customer.DisplayName != "Zoe Quinn" || len(x.Conversations) != 1 {
			t.Fatalf("export = %v:\n%s", err, out.String())
		}
		for _, args := range [][]string{{"customer", "export", "--database-url", dbURL, "999999"}, {"customer", "forget", "--database-url", dbURL, "abc"}, {"customer", "erase", id}, {"customer"}} {
			if err := run(ctx, args, envFunc(nil), nil, io.Discard, io.Discard); err == nil {
				t.Errorf("%v succeeded", args)
			}
		}
		out.Reset()
		if err := run(ctx, []string{"customer", "forget", "--database-url", dbURL, id}, envFunc(nil), nil, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "1 conversations deleted") {
			t.Errorf("forget said %q", out.String())
		}
		if got, _ := catalog.GetCustomer(ctx, db, c.ID); got.DisplayName != "" {
			t.Errorf("the customer is still named %q", got.DisplayName)
		}
	})
}

func itoaID(n int64) string { return strconv.FormatInt(n, 10) }
