package catalogtest

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// Product returns a valid product input (category Shoes > Running unless
// one is given); tests change what they need.
func Product(sku string, price int64, stock int, category ...string) catalog.ProductInput {
	if len(category) == 0 {
		category = []string{"Shoes", "Running"}
	}
	return catalog.ProductInput{
		SKU: sku, Title: "Product " + sku, Description: "A test product", Brand: "Acme",
		CategoryPath: category, Price: price, Currency: "USD", Stock: stock,
		Attributes: map[string]string{"color": "red"}, ImageURLs: []string{"https://img.test/" + sku + ".jpg"},
	}
}

// Seed validates and upserts products.
func Seed(t testing.TB, db bun.IDB, ins ...catalog.ProductInput) {
	t.Helper()
	for i := range ins {
		if err := ins[i].Validate(); err != nil {
			t.Fatalf("fixture %s: %v", ins[i].SKU, err)
		}
	}
	if _, err := catalog.UpsertProducts(context.Background(), db, ins); err != nil {
		t.Fatalf("seed: %v", err)
	}
}

// Customer resolves the customer of (channel, userID), named "User userID".
func Customer(t testing.TB, db bun.IDB, channel, userID string) *catalog.Customer {
	t.Helper()
	c, err := catalog.ResolveCustomer(context.Background(), db, catalog.Identity{Channel: channel, PlatformUserID: userID, DisplayName: "User " + userID})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// OpenConversation opens c's private conversation on c's channel.
func OpenConversation(t testing.TB, db bun.IDB, c *catalog.Customer) *catalog.Conversation {
	t.Helper()
	conv, err := catalog.OpenConversation(context.Background(), db, catalog.ConversationKey{Channel: c.Channel, ChatID: c.PlatformUserID}, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	return conv
}

// Chat is a Telegram conversation with chat that a shopper ("Shopper
// chat") opened with one message, "hello from chat".
func Chat(t testing.TB, db bun.IDB, chat string) *catalog.Conversation {
	t.Helper()
	ctx := context.Background()
	c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: "telegram", PlatformUserID: chat, DisplayName: "Shopper " + chat})
	if err != nil {
		t.Fatal(err)
	}
	conv, err := catalog.OpenConversation(ctx, db, catalog.ConversationKey{Channel: "telegram", ChatID: chat}, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := catalog.AppendMessages(ctx, db, conv.ID, &catalog.Message{Role: catalog.RoleUser, Content: "hello from " + chat}); err != nil {
		t.Fatal(err)
	}
	return conv
}
