package console

import (
	"context"
	"fmt"
	"sync"

	"shopbot/engine/view"
)

// maxPending bounds the notices waiting to be printed.
const maxPending = 50

// Notices is the terminal's engine.Notifier: notices for the console
// user (a product back in stock, an order's status, a merchant's reply)
// wait here and Run prints them between turns, so they never cut into a
// reply being printed. bot/ registers it with the hub for channel
// "console".
type Notices struct {
	mu      sync.Mutex
	user    string
	pending []view.Notice
}

// NewNotices returns the notifier for the terminal user user (Options.User;
// "" is "terminal").
func NewNotices(user string) *Notices {
	if user == "" {
		user = "terminal"
	}
	return &Notices{user: user}
}

// Notify implements engine.Notifier. A notice for another channel or
// user, or one missing what it reports, is an error for the caller's log.
func (n *Notices) Notify(_ context.Context, nt view.Notice) error {
	if nt.Where.Channel != "console" || nt.Where.ChatID != n.user {
		return fmt.Errorf("console: notice for %s %q, not this terminal", nt.Where.Channel, nt.Where.ChatID)
	}
	if _, err := noticeLines(nt); err != nil {
		return err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.pending) >= maxPending {
		return fmt.Errorf("console: %d notices already waiting", maxPending)
	}
	n.pending = append(n.pending, nt)
	return nil
}

// take returns the waiting notices' lines and forgets them.
func (n *Notices) take() []string {
	if n == nil {
		return nil
	}
	n.mu.Lock()
	ns := n.pending
	n.pending = nil
	n.mu.Unlock()
	var out []string
	for _, nt := range ns {
		lines, _ := noticeLines(nt) // checked in Notify
		out = append(out, lines...)
	}
	return out
}

// noticeLines prints a notice; a back-in-stock one offers its product's
// add button as a "/do" line, like any button.
func noticeLines(n view.Notice) ([]string, error) {
	switch n.Kind {
	case view.NoticeBackInStock:
		if n.Product == nil {
			return nil, fmt.Errorf("console: back_in_stock notice without a product")
		}
		c := n.Product
		add := view.NewButton("Add to cart", view.Action{Kind: view.ActAdd, SKU: c.SKU, Qty: 1})
		return []string{
			fmt.Sprintf("🔔 back in stock: %s · %s · %s", c.SKU, c.Title, c.PriceText),
			"  [" + add.Label + "] /do " + add.Data,
		}, nil
	case view.NoticeOrderStatus:
		if n.Order == nil {
			return nil, fmt.Errorf("console: order_status notice without an order")
		}
		lines := []string{fmt.Sprintf("🔔 order %s is now %s", n.Order.Number, n.Order.Status)}
		if n.Order.Tracking != "" {
			lines = append(lines, "  tracking: "+n.Order.Tracking)
		}
		if n.Text != "" {
			lines = append(lines, "  "+n.Text)
		}
		return lines, nil
	case view.NoticeMerchantReply:
		if n.Text == "" {
			return nil, fmt.Errorf("console: merchant_reply notice without text")
		}
		return []string{"shop> " + n.Text}, nil
	}
	return nil, fmt.Errorf("console: cannot deliver notice %q to a shopper", n.Kind)
}
