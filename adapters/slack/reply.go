package slack

import (
	"context"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"shopbot/engine"
	"shopbot/engine/view"
)

// maxStreamChunk bounds the characters of one chat.*Stream call before
// escaping, so markdown_text stays within Slack's 12,000 even if every
// one of them is an & (5 characters escaped).
const maxStreamChunk = 2_400

type replyMode int

const (
	modeNone   replyMode = iota // nothing of the answer's text sent yet
	modeStream                  // chat.startStream succeeded
	modeUpdate                  // posted, then chat.update
)

// reply renders one turn's events into a channel or thread: text streams
// into one message, cards and orders are messages of their own, the cart
// message is updated in place, buttons go under the answer.
type reply struct {
	a                     *Adapter
	channel, thread, team string
	user                  string

	mode     replyMode
	ts       string          // the answer message
	all      strings.Builder // the answer so far (Markdown)
	pending  strings.Builder // not yet sent to a stream
	last     time.Time       // last stream or update call
	buttons  []view.Button
	answered bool
	pressed  *pressedPicker // the picker choice behind the turn (picker.go)
}

func (a *Adapter) newReply(channel, thread, team, user string) *reply {
	return &reply{a: a, channel: channel, thread: thread, team: team, user: user}
}

// Send implements engine.Sink. Slack failures are logged, not returned:
// the engine's turn (and its order) stands even if a message could not be
// shown.
func (r *reply) Send(ctx context.Context, ev engine.Event) error {
	switch ev.Kind {
	case engine.EventText:
		r.text(ctx, ev.Text)
	case engine.EventCards:
		for _, bs := range chunkBlocks(cardsBlocks(ev.Cards)) {
			r.post(ctx, plainOf(ev.Cards), bs)
		}
	case engine.EventCart:
		if ev.Cart != nil {
			r.picked(ctx, ev.Cart)
			r.cart(ctx, ev.Cart)
		}
	case engine.EventPicker:
		if ev.Picker != nil {
			r.picker(ctx, ev.Picker)
		}
	case engine.EventOrder:
		if ev.Order != nil {
			r.post(ctx, "Order "+ev.Order.Number, orderBlocks(ev.Order, "Order placed"))
		}
	case engine.EventButtons:
		r.buttons = append(r.buttons, ev.Buttons...)
	case engine.EventDone:
		if r.all.Len() == 0 && ev.Text != "" {
			r.text(ctx, ev.Text)
		}
		r.finish(ctx)
	case engine.EventError:
		r.post(ctx, ev.Text, textBlocks(toMrkdwn(ev.Text)))
	}
	return nil
}

// text adds a piece of the answer: the first piece starts the message,
// later ones are sent at most once per throttle interval.
func (r *reply) text(ctx context.Context, s string) {
	if s == "" {
		return
	}
	r.all.WriteString(s)
	r.pending.WriteString(s)
	switch {
	case r.mode == modeNone:
		r.start(ctx)
	case r.a.cfg.Now().Sub(r.last) >= r.a.cfg.Throttle:
		r.flush(ctx)
	}
}

// start opens the answer message: a stream in a thread, else a message
// to update.
func (r *reply) start(ctx context.Context) {
	r.last = r.a.cfg.Now()
	if r.thread != "" && !r.a.noStream.Load() {
		chunk := r.takePending(maxStreamChunk)
		err := r.a.api.do(ctx, "chat.startStream", func(ctx context.Context) (err error) {
			_, r.ts, err = r.a.client.StartStreamContext(ctx, r.channel, slack.MsgOptionTS(r.thread),
				slack.MsgOptionMarkdownText(chunk), slack.MsgOptionRecipientUserID(r.user), slack.MsgOptionRecipientTeamID(r.team))
			return err
		})
		if err == nil {
			r.mode = modeStream
			r.streamRest(ctx)
			return
		}
		if slackError(err) == "unknown_method" {
			r.a.noStream.Store(true)
		} else {
			r.a.log.WarnContext(ctx, "slack stream failed; posting instead", "err", err)
		}
		r.pending.Reset()
	}
	r.ts = r.post(ctx, r.all.String(), firstChunk(textBlocks(toMrkdwn(r.all.String()))))
	r.last = r.a.cfg.Now()
	r.mode = modeUpdate
	r.pending.Reset()
}

// takePending returns up to n characters of what is pending, escaped:
// Markdown renders &amp; &lt; &gt; as the characters, and Slack then
// reads no <@mention> or <!channel> into the model's text.
func (r *reply) takePending(n int) string {
	s := r.pending.String()
	head, rest := cutRunes(s, n)
	r.pending.Reset()
	r.pending.WriteString(rest)
	return escape(head)
}

// streamRest appends what is pending in chunks.
func (r *reply) streamRest(ctx context.Context) {
	for r.pending.Len() > 0 {
		chunk := r.takePending(maxStreamChunk)
		err := r.a.api.do(ctx, "chat.appendStream", func(ctx context.Context) (err error) {
			_, _, err = r.a.client.AppendStreamContext(ctx, r.channel, r.ts, slack.MsgOptionMarkdownText(chunk))
			return err
		})
		if err != nil {
			r.a.log.WarnContext(ctx, "slack appendStream failed", "err", err)
			return
		}
	}
}

// flush sends what is new since the last call.
func (r *reply) flush(ctx context.Context) {
	r.last = r.a.cfg.Now()
	switch r.mode {
	case modeStream:
		r.streamRest(ctx)
	case modeUpdate:
		r.pending.Reset()
		r.update(ctx, r.ts, r.all.String(), firstChunk(textBlocks(toMrkdwn(r.all.String()))))
		r.last = r.a.cfg.Now() // the next update comes a throttle after this one arrived
	}
}

// finish completes the answer: the stream is stopped (or the message
// updated a last time) with the buttons under it. It runs once.
func (r *reply) finish(ctx context.Context) {
	if r.answered {
		return
	}
	r.answered = true
	buttons := buttonBlocks(r.buttons)
	switch r.mode {
	case modeStream:
		chunk := r.takePending(maxStreamChunk)
		r.streamRest(ctx)
		err := r.a.api.do(ctx, "chat.stopStream", func(ctx context.Context) (err error) {
			opts := []slack.MsgOption{slack.MsgOptionMarkdownText(chunk)}
			if len(buttons) > 0 {
				opts = append(opts, slack.MsgOptionBlocks(uniqueActions(buttons)...))
			}
			_, _, err = r.a.client.StopStreamContext(ctx, r.channel, r.ts, opts...)
			return err
		})
		if err != nil {
			r.a.log.WarnContext(ctx, "slack stopStream failed", "err", err)
		}
	case modeUpdate:
		r.finishUpdate(ctx, buttons)
	default:
		if len(buttons) > 0 {
			r.post(ctx, "Choose an option", buttons)
		}
	}
}

// finishUpdate writes the whole answer: its first blocks into the
// message, the rest (a very long answer) into more messages, the buttons
// at the end.
func (r *reply) finishUpdate(ctx context.Context, buttons []slack.Block) {
	text := r.all.String()
	chunks := chunkBlocks(append(textBlocks(toMrkdwn(text)), buttons...))
	if len(chunks) == 0 {
		return
	}
	r.waitThrottle(ctx)
	r.update(ctx, r.ts, text, chunks[0])
	r.last = r.a.cfg.Now()
	for _, bs := range chunks[1:] {
		r.post(ctx, text, bs)
	}
}

// waitThrottle keeps chat.update calls of one answer a throttle apart.
func (r *reply) waitThrottle(ctx context.Context) {
	d := r.a.cfg.Throttle - r.a.cfg.Now().Sub(r.last)
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
	r.last = r.a.cfg.Now()
}

// cart shows the cart: the cart message of this thread is updated in
// place when there is one, else a new one is posted.
func (r *reply) cart(ctx context.Context, v *view.CartView) {
	blocks := cartBlocks(v)
	text := "Cart: " + v.TotalText
	if ts := r.a.cartMessage(ctx, r.channel, r.thread); ts != "" {
		if r.update(ctx, ts, text, blocks) {
			return
		}
	}
	if ts := r.post(ctx, text, blocks); ts != "" {
		r.a.rememberCart(ctx, r.channel, r.thread, ts)
	}
}

// post sends a message to the reply's thread and returns its ts ("" on
// failure, logged).
func (r *reply) post(ctx context.Context, text string, blocks []slack.Block) string {
	return r.a.post(ctx, r.channel, r.thread, text, blocks)
}

func (r *reply) update(ctx context.Context, ts, text string, blocks []slack.Block) bool {
	return r.a.update(ctx, r.channel, ts, text, blocks)
}

// post sends a message (in thread when set); text is the notification
// fallback.
func (a *Adapter) post(ctx context.Context, channel, thread, text string, blocks []slack.Block) string {
	opts := []slack.MsgOption{slack.MsgOptionText(fallbackText(text), false)}
	if len(blocks) > 0 {
		opts = append(opts, slack.MsgOptionBlocks(uniqueActions(blocks)...))
	}
	if thread != "" {
		opts = append(opts, slack.MsgOptionTS(thread))
	}
	var ts string
	err := a.api.do(ctx, "chat.postMessage", func(ctx context.Context) (err error) {
		_, ts, err = a.client.PostMessageContext(ctx, channel, opts...)
		return err
	})
	if err != nil {
		a.log.WarnContext(ctx, "slack postMessage failed", "channel_id", channel, "err", err)
		return ""
	}
	return ts
}

func (a *Adapter) update(ctx context.Context, channel, ts, text string, blocks []slack.Block) bool {
	opts := []slack.MsgOption{slack.MsgOptionText(fallbackText(text), false)}
	if len(blocks) > 0 {
		opts = append(opts, slack.MsgOptionBlocks(uniqueActions(blocks)...))
	}
	err := a.api.do(ctx, "chat.update", func(ctx context.Context) (err error) {
		_, _, _, err = a.client.UpdateMessageContext(ctx, channel, ts, opts...)
		return err
	})
	if err != nil {
		a.log.WarnContext(ctx, "slack chat.update failed", "channel_id", channel, "err", err)
		return false
	}
	return true
}
