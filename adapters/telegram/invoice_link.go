package telegram

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/go-telegram/bot"

	"shopbot/engine/agentdoor"
	"shopbot/engine/view"
)

// Invoice links pay orders placed through the agent door (issue 31): an
// agent completes a checkout, and the buyer pays in Telegram by opening
// the link the agent hands them (Bot API createInvoiceLink). The link's
// invoice is the one a Telegram order gets — the same lines, total and
// payload "order:<number>" — so the pre-checkout query and the
// successful payment that follow are checked and recorded by the same
// code (payments.go): the order must await payment, the amount and
// currency must be its total, and a paid or cancelled order is refused.
// The payer's chat with the bot is not the order's chat; the thanks go
// to the payer.

// ErrNoInvoice is an order that cannot be invoiced: Telegram Payments
// are not configured, or its prices do not add up to its total.
var ErrNoInvoice = errors.New("telegram: no invoice for this order")

// maxLinks bounds the links remembered per process.
const maxLinks = 4096

// linkMemo remembers the link made for each order, so an order asked for
// twice gets one link. make is held while a link is made: links are
// made once per agent's order, seldom, so concurrent asks simply wait.
type linkMemo struct {
	make  sync.Mutex
	mu    sync.Mutex
	links map[string]string
	order []string // numbers in the order they were remembered, for eviction
}

// InvoiceLink is a t.me link to pay the order ov in Telegram (engine
// Config.PaymentLink for agents' orders). The same order gets the same
// link while this process remembers it.
func (a *Adapter) InvoiceLink(ctx context.Context, ov *view.OrderView) (string, error) {
	if a.cfg.PaymentToken == "" || ov == nil {
		return "", ErrNoInvoice
	}
	inv, ok := invoiceOf(ov, "")
	if !ok {
		return "", fmt.Errorf("%w: order %s: prices do not add up to the total", ErrNoInvoice, ov.Number)
	}
	a.links.make.Lock()
	defer a.links.make.Unlock()
	if url, ok := a.links.get(ov.Number); ok {
		return url, nil
	}
	var url string
	err := a.call(ctx, 0, "createInvoiceLink", false, func(ctx context.Context) error {
		var err error
		url, err = a.bot.CreateInvoiceLink(ctx, &bot.CreateInvoiceLinkParams{
			Title: inv.title, Description: inv.description, Payload: inv.payload,
			ProviderToken: a.cfg.PaymentToken, Currency: ov.Currency, Prices: inv.prices,
		})
		return err
	})
	if err != nil {
		return "", fmt.Errorf("telegram: invoice link for order %s: %w", ov.Number, err)
	}
	a.links.put(ov.Number, url)
	return url, nil
}

// payChannels are the channels whose orders a Telegram payment may pay:
// the chat's own, and the agent door's once invoice links are made.
func (a *Adapter) payChannels() []string {
	if a.cfg.PaymentToken == "" {
		return []string{"telegram"}
	}
	return []string{"telegram", agentdoor.Channel}
}

func (m *linkMemo) get(number string) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	url, ok := m.links[number]
	return url, ok
}

func (m *linkMemo) put(number, url string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.links == nil {
		m.links = map[string]string{}
	}
	if _, ok := m.links[number]; !ok {
		m.order = append(m.order, number)
	}
	m.links[number] = url
	for len(m.order) > maxLinks {
		delete(m.links, m.order[0])
		m.order = m.order[1:]
	}
}
