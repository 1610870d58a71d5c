package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"shopbot/engine/locale"
	"shopbot/engine/view"
)

// noticeEvent is a notice as the web client gets it: Text to show, the
// product of a back-in-stock notice and its add button.
type noticeEvent struct {
	Type    string          `json:"type"`         // "notice"
	ID      string          `json:"id,omitempty"` // the same wherever it is delivered
	Kind    view.NoticeKind `json:"kind"`
	Text    string          `json:"text"`
	Card    *view.Card      `json:"card,omitempty"`
	Order   *view.OrderView `json:"order,omitempty"`
	Buttons []view.Button   `json:"buttons,omitempty"`
}

// Notify implements engine.Notifier for web shoppers: the notice goes
// into the session's event log (eventlog.go), where every live stream of
// the session on any replica reads it (Events) and a reload finds it
// (History), and it waits in the NoticeStore (notices.go) for the
// session's next request (a chat message, or GET /api/chat/notices),
// which carries it to a client without a live stream. It fails only when
// both refused it (each failure alone is logged). A notice for another
// channel, or missing what it reports, is an error for the caller's log.
func (c *Chat) Notify(ctx context.Context, n view.Notice) error {
	if n.Where.Channel != "web" || !sessionRE.MatchString(n.Where.ChatID) {
		return fmt.Errorf("web: notice for %s %q", n.Where.Channel, n.Where.ChatID)
	}
	ev, err := noticeOf(n)
	if err != nil {
		return err
	}
	ev.ID = newNoticeID()
	s := n.Where.ChatID
	b, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("web: encode notice: %w", err)
	}
	_, logErr := c.eventLog().Append(ctx, s, []LoggedEvent{{Event: "notice", Data: b, At: time.Now().UTC()}})
	mailErr := c.mail.put(ctx, s, ev)
	switch {
	case logErr != nil && mailErr != nil:
		return fmt.Errorf("web: notice not kept: %w", errors.Join(logErr, mailErr))
	case logErr != nil && c.log != nil:
		c.log.WarnContext(ctx, "web notice not logged; it waits for the next request", "err", logErr)
	case mailErr != nil && c.log != nil:
		c.log.WarnContext(ctx, "web notice not queued; live streams and history have it", "err", mailErr)
	}
	if logErr == nil {
		c.live.wake(s)
	}
	return nil
}

// newNoticeID is a notice's id: random, so replicas need not agree.
func newNoticeID() string {
	b := make([]byte, 9)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// DeliverStaffMessage delivers a person's message (a merchant replying
// while the conversation is taken over) to a web session: the widget
// open on it shows it at once through its live stream (GET
// /api/chat/events), on any replica within the poll interval; a shopper
// who is away gets it when the widget reconnects. It is Notify with a
// merchant_reply notice; the caller records the message in the
// transcript as it does for every channel.
func (c *Chat) DeliverStaffMessage(ctx context.Context, session, text string) error {
	n := view.Notice{Kind: view.NoticeMerchantReply, Text: text}
	n.Where.Channel, n.Where.ChatID = "web", session
	return c.Notify(ctx, n)
}

func noticeOf(n view.Notice) (noticeEvent, error) {
	ev := noticeEvent{Type: "notice", Kind: n.Kind, Text: n.Text}
	switch n.Kind {
	case view.NoticeBackInStock:
		if n.Product == nil {
			return ev, fmt.Errorf("web: back_in_stock notice without a product")
		}
		ev.Card = n.Product
		ev.Text = fmt.Sprintf("%s is back in stock: %s.", n.Product.Title, n.Product.PriceText)
		ev.Buttons = []view.Button{view.NewButton("Add to cart", view.Action{Kind: view.ActAdd, SKU: n.Product.SKU, Qty: 1})}
	case view.NoticeOrderStatus:
		if n.Order == nil {
			return ev, fmt.Errorf("web: order_status notice without an order")
		}
		ev.Order = n.Order
		ev.Text = fmt.Sprintf("Your order %s is now %s.", n.Order.Number, n.Order.Status)
		if n.Text != "" {
			ev.Text += " " + n.Text
		}
	case view.NoticeCSAT:
		ev.Text = locale.Word(n.Locale, "csat.prompt")
		ev.Buttons = view.RatingButtons()
	case view.NoticeMerchantReply:
		if n.Text == "" {
			return ev, fmt.Errorf("web: merchant_reply notice without text")
		}
	default:
		return ev, fmt.Errorf("web: cannot deliver notice %q to a shopper", n.Kind)
	}
	return ev, nil
}

// Notices answers GET /api/chat/notices?session=…: the notices waiting
// for the session, {"notices": [...]}, for a client that polls while the
// shopper is idle.
func (c *Chat) Notices(w http.ResponseWriter, r *http.Request) {
	s := r.URL.Query().Get("session")
	if !sessionRE.MatchString(s) {
		writeError(w, http.StatusBadRequest, "session must be 16-64 letters, digits, - or _ (e.g. a UUID)")
		return
	}
	ns, err := c.mail.take(r.Context(), s)
	if err != nil {
		if c.log != nil {
			c.log.WarnContext(r.Context(), "web notices not taken", "err", err)
		}
		w.Header().Set("Retry-After", retryAfter)
		writeError(w, http.StatusServiceUnavailable, "notices are briefly unavailable; please try again in a few seconds")
		return
	}
	if ns == nil {
		ns = []noticeEvent{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"notices": ns})
}
