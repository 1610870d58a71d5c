package admin

import (
	"context"

	"shopbot/catalog"
	"shopbot/catalog/panel"
)

// customerPanel is what the team sees of the shopper beside the
// conversation: identities per channel, orders with status, the current
// cart, what they spent, the contact they gave, their other
// conversations.
type customerPanel struct {
	Customer      *catalog.Customer
	Identities    []catalog.Customer
	Orders        []catalog.Order
	MoreOrders    bool
	Cart          *catalog.Cart
	Spent         []panel.Spent
	Conversations []catalog.Conversation // the others, newest first
}

// panelOrders is how many of the newest orders the panel lists.
const panelOrders = 5

func (s *Server) customerPanel(ctx context.Context, c *catalog.Customer, conv *catalog.Conversation) (*customerPanel, error) {
	p := &customerPanel{Customer: c}
	var err error
	if p.Identities, err = panel.CustomerIdentities(ctx, s.db, c); err != nil {
		return nil, err
	}
	orders, next, err := catalog.ListOrderPage(ctx, s.db, catalog.OrderList{Customer: c.ID, Limit: panelOrders})
	if err != nil {
		return nil, err
	}
	p.Orders, p.MoreOrders = orders, next > 0
	scope := catalog.PersonalCart(c.ID)
	if p.Cart, err = catalog.GetCart(ctx, s.db, scope); err != nil {
		return nil, err
	}
	if p.Spent, err = panel.CustomerSpent(ctx, s.db, c.ID); err != nil {
		return nil, err
	}
	convs, err := catalog.CustomerConversations(ctx, s.db, c.ID)
	if err != nil {
		return nil, err
	}
	for _, o := range convs {
		if o.ID != conv.ID {
			p.Conversations = append(p.Conversations, o)
		}
	}
	return p, nil
}
