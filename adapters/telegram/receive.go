package telegram

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/go-telegram/bot/models"

	"shopbot/adapters"
	"shopbot/adapters/inbox"
	"shopbot/engine"
)

// maxUpdateBytes bounds a webhook body.
const maxUpdateBytes = 1 << 20

// ServeHTTP receives webhook updates (POST /telegram/webhook). It checks
// the secret token itself — a request without it gets 401 and changes
// nothing — and answers 200 only after the update is recorded, so
// Telegram redelivers whatever was not.
func (a *Adapter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	got := r.Header.Get("X-Telegram-Bot-Api-Secret-Token")
	if a.cfg.WebhookSecret == "" || subtle.ConstantTimeCompare([]byte(got), []byte(a.cfg.WebhookSecret)) != 1 {
		http.Error(w, "wrong or missing X-Telegram-Bot-Api-Secret-Token", http.StatusUnauthorized)
		return
	}
	select {
	case <-a.started:
	default:
		// Updates recorded before a restart are resumed first, so that
		// none runs twice; Telegram retries.
		w.Header().Set("Retry-After", "1")
		http.Error(w, "the bot is starting", http.StatusServiceUnavailable)
		return
	}
	body, err := adapters.ReadBody(w, r, maxUpdateBytes)
	switch {
	case errors.Is(err, adapters.ErrBodyTooLarge):
		http.Error(w, "update body over 1 MB", http.StatusRequestEntityTooLarge)
		return
	case err != nil:
		http.Error(w, "update body unreadable", http.StatusBadRequest)
		return
	}
	u, err := decodeUpdate(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if err := a.accept(r.Context(), u, body, time.Now()); err != nil {
		a.log.ErrorContext(r.Context(), "telegram update not recorded; Telegram will redeliver", "update_id", u.ID, "err", err)
		code := http.StatusInternalServerError
		if errors.Is(engine.Unavailable(err), engine.ErrUnavailable) {
			w.Header().Set("Retry-After", "5")
			code = http.StatusServiceUnavailable
		}
		http.Error(w, "update not recorded, retry later", code)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// decodeUpdate parses an update. Invalid UTF-8 in its strings decodes
// as U+FFFD; NUL and other control characters in the fields a turn uses
// are removed where the turn is built (turnBase).
func decodeUpdate(body []byte) (*models.Update, error) {
	var u models.Update
	if err := json.Unmarshal(body, &u); err != nil {
		return nil, fmt.Errorf("update is not a Telegram Update JSON object: %v", err)
	}
	if u.ID <= 0 {
		return nil, errors.New("update has no update_id")
	}
	return &u, nil
}

// errStopping reports an update that arrived while the adapter stops.
var errStopping = errors.New("telegram: stopping")

// accept records an update durably and queues it for handling; a
// redelivered update is recognised by its update_id and does nothing. It
// returns once the update is recorded (or recording failed). The inbox's
// writer queues what it recorded, so an update whose webhook request gave
// up is still handled.
func (a *Adapter) accept(ctx context.Context, u *models.Update, raw []byte, received time.Time) error {
	if !a.enter() {
		return errStopping
	}
	defer a.side.Done()
	fresh, err := a.inbox.Record(ctx, inbox.Update{
		Key: updateKey(u), Chat: chatKey(u), Kind: kindUpdate, Payload: string(raw), ReceivedAt: received,
	}, func() {
		a.metrics.updates.WithLabelValues(kindOf(u)).Inc()
		a.dispatch(u, received)
	})
	if err != nil {
		return err
	}
	a.metrics.ack.Observe(time.Since(received).Seconds())
	a.received(received)
	if !fresh {
		a.metrics.duplicates.Inc()
	}
	return nil
}

// kindUpdate is the inbox kind of every Telegram row: a Bot API Update.
const kindUpdate = "update"

// updateKey is an update's inbox key: its update_id.
func updateKey(u *models.Update) string { return strconv.FormatInt(u.ID, 10) }

// job is one recorded update being handled.
type job struct {
	update   *models.Update
	received time.Time
	slot     *slot // the running turn's share of Concurrency
}

// slot is a running turn's place among the turns allowed at once; the
// turn gives it up while it waits for the pacer (reply.pace), so chats
// that wait to send do not hold up chats that could work.
type slot = inbox.Slot

// dispatch queues an update behind its chat's earlier ones, in update_id
// order. Pre-checkout queries are answered at once (Telegram waits 10 s
// at most). An update the chat's full queue refuses is released: a later
// sweep, here or on another replica, takes it again.
func (a *Adapter) dispatch(u *models.Update, received time.Time) {
	if u.CallbackQuery != nil {
		a.answerAtOnce(u.CallbackQuery, received)
	}
	if u.PreCheckoutQuery != nil {
		a.side.Add(1)
		go func() {
			defer a.side.Done()
			a.handle(a.ctx, job{update: u, received: received})
		}()
		return
	}
	err := a.queue.Push(chatKey(u), inbox.Job{ID: updateKey(u), Seq: u.ID, Run: func(ctx context.Context, s *inbox.Slot) {
		a.handle(ctx, job{update: u, received: received, slot: s})
	}})
	if errors.Is(err, inbox.ErrFull) {
		a.log.WarnContext(a.ctx, "telegram chat queue full; update released for a later sweep", "update_id", u.ID, "chat_id", chatKey(u))
		a.releaseOne(a.ctx, u)
	}
}

// chatKey is the chat an update belongs to.
func chatKey(u *models.Update) string {
	switch {
	case u.Message != nil:
		return strconv.FormatInt(u.Message.Chat.ID, 10)
	case u.CallbackQuery != nil && u.CallbackQuery.Message.Message != nil:
		return strconv.FormatInt(u.CallbackQuery.Message.Message.Chat.ID, 10)
	case u.CallbackQuery != nil && u.CallbackQuery.Message.InaccessibleMessage != nil:
		return strconv.FormatInt(u.CallbackQuery.Message.InaccessibleMessage.Chat.ID, 10)
	case u.CallbackQuery != nil:
		return strconv.FormatInt(u.CallbackQuery.From.ID, 10)
	case u.PreCheckoutQuery != nil && u.PreCheckoutQuery.From != nil:
		return strconv.FormatInt(u.PreCheckoutQuery.From.ID, 10)
	default:
		return "other"
	}
}

// kindOf names an update's type for the metrics.
func kindOf(u *models.Update) string {
	switch {
	case u.CallbackQuery != nil:
		return "callback_query"
	case u.PreCheckoutQuery != nil:
		return "pre_checkout_query"
	case u.Message == nil:
		return "other"
	case u.Message.SuccessfulPayment != nil:
		return "successful_payment"
	case u.Message.Contact != nil:
		return "contact"
	case len(u.Message.Text) > 0 && u.Message.Text[0] == '/':
		return "command"
	case u.Message.Text != "":
		return "message"
	default:
		return "other"
	}
}

// poll receives updates by long polling. The offset that acknowledges an
// update is sent only after the update is recorded.
func (a *Adapter) poll(ctx context.Context) error {
	if _, err := a.bot.DeleteWebhook(ctx, nil); err != nil && ctx.Err() == nil {
		a.log.WarnContext(ctx, "telegram deleteWebhook failed; getUpdates may conflict", "err", err)
	}
	var offset int64
	delay := time.Duration(0)
	for ctx.Err() == nil {
		raws, err := a.getUpdates(ctx, offset)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			delay = min(max(2*delay, 250*time.Millisecond), 30*time.Second)
			a.log.WarnContext(ctx, "telegram getUpdates failed, retrying", "err", err, "retry_in", delay)
			_ = sleep(ctx, delay)
			continue
		}
		delay = 0
		received := time.Now()
		for _, raw := range raws {
			u, err := decodeUpdate(raw)
			if err != nil {
				a.log.ErrorContext(ctx, "telegram update unreadable, skipped", "err", err)
				continue
			}
			if err := a.acceptRetrying(ctx, u, raw, received); err != nil {
				return nil // stopping: not acknowledged, Telegram keeps it
			}
			offset = u.ID + 1
		}
	}
	return nil
}

// acceptRetrying records an update, retrying while the database is
// unavailable: polling waits rather than acknowledge an unrecorded update.
func (a *Adapter) acceptRetrying(ctx context.Context, u *models.Update, raw []byte, received time.Time) error {
	delay := 100 * time.Millisecond
	for {
		err := a.accept(ctx, u, raw, received)
		if err == nil {
			return nil
		}
		a.log.ErrorContext(ctx, "telegram update not recorded, retrying", "update_id", u.ID, "err", err)
		if err := sleep(ctx, delay); err != nil {
			return err
		}
		delay = min(2*delay, 10*time.Second)
	}
}

// getUpdates makes one long poll and returns the updates as raw JSON, as
// they are stored. (The library's poller acknowledges updates before its
// handlers run, so the adapter polls itself.)
func (a *Adapter) getUpdates(ctx context.Context, offset int64) ([]json.RawMessage, error) {
	body, _ := json.Marshal(map[string]any{
		"offset": offset, "timeout": int(a.cfg.PollTimeout.Seconds()), "allowed_updates": allowedUpdates,
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.cfg.APIURL+"/bot"+a.cfg.Token+"/getUpdates", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("telegram: getUpdates: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := a.http.Do(req)
	if err != nil {
		return nil, errors.New("telegram: getUpdates: the Bot API is unreachable") // the URL holds the token: not logged
	}
	defer resp.Body.Close()
	var out struct {
		OK          bool              `json:"ok"`
		Result      []json.RawMessage `json:"result"`
		ErrorCode   int               `json:"error_code"`
		Description string            `json:"description"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<20)).Decode(&out); err != nil {
		return nil, fmt.Errorf("telegram: getUpdates: unreadable answer (HTTP %d)", resp.StatusCode)
	}
	a.metrics.sends.WithLabelValues("getUpdates", map[bool]string{true: "ok", false: "error"}[out.OK]).Inc()
	if !out.OK {
		return nil, fmt.Errorf("telegram: getUpdates: %d %s", out.ErrorCode, out.Description)
	}
	return out.Result, nil
}
