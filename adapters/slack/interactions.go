package slack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"shopbot/engine"
	"shopbot/engine/view"
)

// serveInteractions is POST /slack/interactions (form field payload).
func (a *Adapter) serveInteractions(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	body := a.readVerified(w, r)
	if body == nil {
		return
	}
	form, err := url.ParseQuery(string(body))
	if err != nil || form.Get("payload") == "" {
		http.Error(w, "form field payload is required", http.StatusBadRequest)
		return
	}
	err = a.acceptInteraction(r.Context(), []byte(form.Get("payload")))
	switch {
	case errors.Is(err, errBadPayload):
		http.Error(w, err.Error(), http.StatusBadRequest)
	case err != nil:
		a.notAccepted(w, r, "slack interaction not accepted", err)
	default:
		w.WriteHeader(http.StatusOK)
	}
	a.metrics.ackSeconds.Observe(time.Since(start).Seconds())
}

// acceptInteraction takes a block_actions payload: the pressed button
// becomes a turn with its Action, answered where the button was.
func (a *Adapter) acceptInteraction(ctx context.Context, payload []byte) error {
	key, w, err := a.interactionWork(payload, true)
	if err != nil || w.job == nil {
		return err
	}
	return a.record(ctx, key, kindAction, payload, w)
}

// interactionWork parses an interaction payload into its inbox key and
// work (no job for other interactions). count counts it as received.
func (a *Adapter) interactionWork(payload []byte, count bool) (key string, w work, err error) {
	var cb slack.InteractionCallback
	if err := json.Unmarshal(payload, &cb); err != nil {
		return "", work{}, fmt.Errorf("%w: %v", errBadPayload, err)
	}
	if count {
		a.metrics.events.WithLabelValues(string(cb.Type)).Inc()
	}
	if cb.Type != slack.InteractionTypeBlockActions {
		return "", work{}, nil
	}
	if len(cb.ActionCallback.BlockActions) == 0 {
		return "", work{}, fmt.Errorf("%w: block_actions without actions", errBadPayload)
	}
	ba := cb.ActionCallback.BlockActions[0]
	act, err := view.ParseAction(actionValue(ba))
	if err != nil {
		return "", work{}, fmt.Errorf("%w: %v", errBadPayload, err)
	}
	if cb.User.ID == "" || cb.TriggerID == "" {
		return "", work{}, fmt.Errorf("%w: block_actions without user or trigger_id", errBadPayload)
	}
	w.queue, w.job = a.actionJob(cb, ba, act)
	return "action:" + cb.TriggerID, w, nil
}

// actionJob is the work for a button press: in a channel thread or DM
// the answer goes there; on an ephemeral message (the slash command's
// results) it goes back through response_url.
func (a *Adapter) actionJob(cb slack.InteractionCallback, ba *slack.BlockAction, act view.Action) (string, func(context.Context)) {
	channel := firstNonEmpty(cb.Channel.ID, cb.Container.ChannelID)
	user, team := cb.User.ID, firstNonEmpty(cb.Team.ID, cb.User.TeamID)
	turn := func(ctx context.Context) engine.Turn {
		return engine.Turn{Channel: "slack", UserID: user, UserName: a.api.userName(ctx, user, cb.User.Name),
			Action: &act, DedupKey: "action:" + cb.TriggerID}
	}
	var picked *pressedPicker
	if strings.HasPrefix(ba.BlockID, pickerBlock) {
		picked = &pressedPicker{action: act}
	}
	if cb.Container.IsEphemeral || channel == "" {
		if cb.ResponseURL == "" {
			return "", nil
		}
		return "cmd/" + user, func(ctx context.Context) {
			t := turn(ctx)
			t.ChatID = user // the slash-command conversation
			res := a.newResponder(cb.ResponseURL)
			res.pressed = picked
			a.runTurn(ctx, t, res)
		}
	}
	if picked != nil {
		picked.ts = firstNonEmpty(cb.Container.MessageTs, cb.Message.Timestamp)
	}
	thread := firstNonEmpty(cb.Container.ThreadTs, cb.Message.ThreadTimestamp)
	shared := !strings.HasPrefix(channel, "D")
	if shared && thread == "" {
		thread = firstNonEmpty(cb.Container.MessageTs, cb.Message.Timestamp)
	}
	origin := ""
	if strings.HasPrefix(ba.BlockID, "cart") {
		origin = firstNonEmpty(cb.Container.MessageTs, cb.Message.Timestamp)
	}
	return channel + "/" + thread, func(ctx context.Context) {
		t := turn(ctx)
		t.ChatID, t.ThreadID, t.Shared = channel, thread, shared
		if origin != "" {
			a.rememberCart(ctx, channel, thread, origin)
		}
		r := a.newReply(channel, thread, team, user)
		r.pressed = picked
		a.runTurn(ctx, t, r)
	}
}

// actionValue is the engine action a block action carries: a button's
// value, or the option chosen in a select menu (a variant picker).
func actionValue(ba *slack.BlockAction) string {
	if ba.Type == slack.ActionType(slack.OptTypeStatic) {
		return ba.SelectedOption.Value
	}
	return ba.Value
}
