package engine

import (
	"shopbot/engine/view"
)

// Turn is one incoming message, normalized by an adapter. The identity
// fields come from the platform's verified update, never from the model.
type Turn struct {
	Channel  string // telegram, slack, web, console
	ChatID   string // the chat (DM, group, channel); the user id in a DM
	ThreadID string // Slack thread, else empty
	UserID   string // platform user id
	UserName string // display name
	Username string // handle, when the platform has one
	Locale   string // e.g. "en", "ru"; empty if unknown
	Shared   bool   // a group chat or channel: one shared cart for everyone

	Text   string       // what the shopper wrote
	Action *view.Action // or the button they pressed

	// DedupKey identifies the platform update (Telegram update_id, Slack
	// event_id, web Idempotency-Key, console line). The turn's side
	// effects (cart changes, the order, the saved contact, a handoff) are
	// journaled under it, scoped to the conversation, so the same update
	// run again after a crash changes nothing twice (effects.go). Empty:
	// the engine makes up a unique key, and a retry is a new turn.
	DedupKey string
}
