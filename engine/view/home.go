package view

// Home is a shopper's own page outside any chat (Slack's App Home): the
// cart they shop with alone, the chats' shared carts they added to and
// their latest orders. Prices come formatted in the cart and order views.
type Home struct {
	Cart   *CartView   // the shopper's personal cart (empty, never nil)
	Shared []HomeCart  // shared carts the shopper added to, latest changed first
	Orders []OrderView // the shopper's orders, newest first
	// Categories are the shop's top-level category names, in the shop's
	// order (suggestions where a conversation starts).
	Categories []string
}

// HomeCart is a chat's shared cart on a shopper's Home.
type HomeCart struct {
	ChatID string // the chat (Slack channel) the cart belongs to
	Cart   *CartView
	// Yours holds the SKUs of the lines this shopper added (a cart has
	// one line per product), so the Home can say "you" for them.
	Yours map[string]bool
}
