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

// helpText answers /shop help.
const helpText = "*/shop* finds products and keeps your cart:\n" +
	"• `/shop red running shoes under $100` searches the catalog\n" +
	"• `/shop cart` shows your cart\n" +
	"• `/shop orders` shows your recent orders\n" +
	"• `/shop help` shows this\n" +
	"Mention me in a channel to shop together: the channel shares one cart."

// serveCommands is POST /slack/commands.
func (a *Adapter) serveCommands(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	body := a.readVerified(w, r)
	if body == nil {
		return
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		http.Error(w, "malformed form", http.StatusBadRequest)
		return
	}
	cmd := slack.SlashCommand{
		TeamID: form.Get("team_id"), ChannelID: form.Get("channel_id"), UserID: form.Get("user_id"),
		UserName: form.Get("user_name"), Command: form.Get("command"), Text: form.Get("text"),
		ResponseURL: form.Get("response_url"), TriggerID: form.Get("trigger_id"),
	}
	resp, err := a.acceptCommand(r.Context(), cmd)
	switch {
	case errors.Is(err, errBadPayload):
		http.Error(w, err.Error(), http.StatusBadRequest)
	case err != nil:
		a.notAccepted(w, r, "slack command not accepted", err)
	case resp != nil:
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(resp)
	default:
		w.WriteHeader(http.StatusOK)
	}
	a.metrics.ackSeconds.Observe(time.Since(start).Seconds())
}

// acceptCommand takes a slash command. Help is answered at once (the
// returned message); searches, the cart and orders run after the ack
// and answer through response_url, visible to the caller only.
func (a *Adapter) acceptCommand(ctx context.Context, cmd slack.SlashCommand) (*commandReply, error) {
	a.metrics.events.WithLabelValues("slash_command").Inc()
	reply, w, err := a.commandWork(cmd)
	if err != nil || w.job == nil {
		return reply, err
	}
	payload, err := json.Marshal(cmd)
	if err != nil {
		return nil, fmt.Errorf("slack: encode command: %w", err)
	}
	return nil, a.record(ctx, "cmd:"+cmd.TriggerID, kindCommand, payload, w)
}

// commandWork is a slash command's immediate answer, or its work.
func (a *Adapter) commandWork(cmd slack.SlashCommand) (*commandReply, work, error) {
	if cmd.UserID == "" || cmd.ResponseURL == "" || cmd.TriggerID == "" {
		return nil, work{}, fmt.Errorf("%w: command without user_id, response_url or trigger_id", errBadPayload)
	}
	if !strings.HasPrefix(cmd.ResponseURL, "https://") && !strings.HasPrefix(cmd.ResponseURL, a.responseURLPrefix()) {
		return nil, work{}, fmt.Errorf("%w: response_url must be https", errBadPayload)
	}
	text := strings.TrimSpace(cmd.Text)
	t := engine.Turn{Channel: "slack", ChatID: cmd.UserID, UserID: cmd.UserID, DedupKey: "cmd:" + cmd.TriggerID}
	switch strings.ToLower(text) {
	case "", "help":
		return &commandReply{ResponseType: slack.ResponseTypeEphemeral, Text: helpText}, work{}, nil
	case "cart":
		t.Action = &view.Action{Kind: view.ActCart}
	case "orders":
		t.Action = &view.Action{Kind: view.ActOrders}
	default:
		t.Text = text
	}
	return nil, work{queue: "cmd/" + cmd.UserID, job: func(ctx context.Context) {
		t.UserName = a.api.userName(ctx, cmd.UserID, cmd.UserName)
		a.runTurn(ctx, t, a.newResponder(cmd.ResponseURL))
	}}, nil
}

// commandReply is the immediate answer to a slash command (the HTTP
// response body, or the Socket Mode ack's payload).
type commandReply struct {
	ResponseType string `json:"response_type"`
	Text         string `json:"text"`
}

// responseURLPrefix admits the API server's own response URLs when
// SLACK_API_URL points at a test server on plain HTTP.
func (a *Adapter) responseURLPrefix() string {
	if a.cfg.APIURL == "" {
		return "https://"
	}
	u, err := url.Parse(a.cfg.APIURL)
	if err != nil {
		return "https://"
	}
	return u.Scheme + "://" + u.Host + "/"
}

// responder collects a turn's reply and posts it to a response_url as
// ephemeral messages (Slack allows five per URL).
type responder struct {
	a       *Adapter
	url     string
	text    strings.Builder
	blocks  []slack.Block
	buttons []view.Button
	done    bool
	// pressed is the picker choice behind the turn: its answer replaces
	// the ephemeral picker message (replace_original).
	pressed *pressedPicker
}

func (a *Adapter) newResponder(u string) *responder { return &responder{a: a, url: u} }

// Send implements engine.Sink.
func (r *responder) Send(ctx context.Context, ev engine.Event) error {
	switch ev.Kind {
	case engine.EventText:
		r.text.WriteString(ev.Text)
	case engine.EventDone, engine.EventError:
		if r.text.Len() == 0 {
			r.text.WriteString(ev.Text)
		}
	case engine.EventCards:
		r.blocks = append(r.blocks, cardsBlocks(ev.Cards)...)
	case engine.EventCart:
		if ev.Cart != nil {
			if l, ok := pickedLine(r.pressed, ev.Cart); ok {
				r.blocks = append(r.blocks, pickedBlocks(l)...)
			}
			r.blocks = append(r.blocks, cartBlocks(ev.Cart)...)
		}
	case engine.EventOrder:
		if ev.Order != nil {
			r.blocks = append(r.blocks, orderBlocks(ev.Order, "Order")...)
		}
	case engine.EventButtons:
		r.buttons = append(r.buttons, ev.Buttons...)
	case engine.EventPicker:
		if ev.Picker != nil {
			r.blocks = append(r.blocks, pickerBlocks(ev.Picker)...)
		}
	}
	return nil
}

// maxResponses is how many messages one response_url takes.
const maxResponses = 5

func (r *responder) finish(ctx context.Context) {
	if r.done {
		return
	}
	r.done = true
	text := r.text.String()
	all := append(textBlocks(toMrkdwn(text)), r.blocks...)
	all = append(all, buttonBlocks(r.buttons)...)
	for i, bs := range chunkBlocks(all) {
		if i == maxResponses {
			break
		}
		msg := &slack.WebhookMessage{ResponseType: slack.ResponseTypeEphemeral, Text: fallbackText(text), Blocks: &slack.Blocks{BlockSet: uniqueActions(bs)},
			ReplaceOriginal: i == 0 && r.pressed != nil}
		err := r.a.api.do(ctx, "response_url", func(ctx context.Context) error {
			return slack.PostWebhookCustomHTTPContext(ctx, r.url, r.a.cfg.HTTPClient, msg)
		})
		if err != nil {
			r.a.log.WarnContext(ctx, "slack response_url failed", "err", err)
			return
		}
	}
}
