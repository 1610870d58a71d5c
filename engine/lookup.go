package engine

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"shopbot/catalog"
	"shopbot/catalog/clip"
)

// What adapters ask of the shop outside a turn, so that none of them
// reads the catalog itself.

// ConversationKey names a conversation: channel, chat and thread. It is
// catalog's type (view.Notice.Where holds one too), named here so that
// adapters need not import the catalog to build one.
type ConversationKey = catalog.ConversationKey

// Unavailable returns err with ErrUnavailable in its chain when it
// reports an unreachable or overloaded database (catalog.Unavailable), so
// an adapter that failed to record an update can answer 503 with
// Retry-After instead of 500; any other error (and nil) comes back as is.
func Unavailable(err error) error { return catalog.Unavailable(err) }

// CanAdd reports whether a product can go into a cart now: it exists, is
// sold and has stock. Chat adapters use it to answer a button press at
// once ("Added ✓" or "Sold out") while the turn that adds it waits its
// place in the chat's queue; the turn itself checks again. A product with
// variants cannot be added as such: CanAdd reports ErrNeedsChoice, and the
// turn answers with the variant picker.
func (e *Engine) CanAdd(ctx context.Context, sku string) (bool, error) {
	if err := checkIDs("sku", sku); err != nil {
		return false, err
	}
	p, err := catalog.GetProduct(ctx, e.cfg.DB, sku)
	switch {
	case errors.Is(err, catalog.ErrNotFound):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("engine: can add %q: %w", sku, catalog.Unavailable(err))
	}
	if p.HasVariants() {
		return false, ErrNeedsChoice
	}
	return p.InStock(), nil
}

// ErrNeedsChoice is CanAdd's answer for a product with variants: which
// one is asked in the chat, so there is nothing to say at once.
var ErrNeedsChoice = errors.New("engine: choose a variant first")

// HasConversation reports whether the assistant holds a conversation at
// key, without opening one: the Slack adapter answers a reply in a
// channel thread without a mention only in threads it takes part in.
func (e *Engine) HasConversation(ctx context.Context, key ConversationKey) (bool, error) {
	if err := checkIDs("channel", key.Channel, "chat id", key.ChatID, "thread id", key.ThreadID); err != nil {
		return false, err
	}
	_, err := catalog.FindConversation(ctx, e.cfg.DB, key)
	switch {
	case errors.Is(err, catalog.ErrNotFound):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("engine: find conversation: %w", catalog.Unavailable(err))
	}
	return true, nil
}

// checkIDs refuses identifiers (name, value pairs) as a turn's are refused
// (cleanTurn): with control characters or invalid UTF-8, or too long. An
// identifier is never altered into another one; it is refused with
// ErrBadTurn, before anything is read or written.
func checkIDs(pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if v := pairs[i+1]; !clip.IsClean(v, false) || utf8.RuneCountInString(v) > maxIDRunes {
			return fmt.Errorf("%w: %s must be at most %d characters without control characters", ErrBadTurn, pairs[i], maxIDRunes)
		}
	}
	return nil
}
