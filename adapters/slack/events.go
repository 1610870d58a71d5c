package slack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/slack-go/slack/slackevents"

	"shopbot/adapters"
	"shopbot/engine"
)

// maxBody bounds a request from Slack.
const maxBody = 1 << 20

// readVerified reads a request body and checks its signature; on failure
// it has answered 401 (or 413) and returns nil.
func (a *Adapter) readVerified(w http.ResponseWriter, r *http.Request) []byte {
	body, err := adapters.ReadBody(w, r, maxBody)
	switch {
	case errors.Is(err, adapters.ErrBodyTooLarge):
		http.Error(w, "request body over 1 MB", http.StatusRequestEntityTooLarge)
		return nil
	case err != nil:
		http.Error(w, "request body unreadable", http.StatusBadRequest)
		return nil
	}
	if err := verify(a.cfg.SigningSecret, r.Header, body, a.cfg.Now()); err != nil {
		reason := map[error]string{errNoSignature: "missing", errStale: "stale", errBadSignature: "mismatch"}[err]
		a.metrics.sigFailures.WithLabelValues(reason).Inc()
		a.log.WarnContext(r.Context(), "slack request rejected", "path", r.URL.Path, "reason", reason)
		http.Error(w, "invalid Slack signature", http.StatusUnauthorized)
		return nil
	}
	if r.Header.Get("X-Slack-Retry-Num") != "" {
		a.metrics.retries.Inc()
	}
	return body
}

// serveEvents is POST /slack/events.
func (a *Adapter) serveEvents(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	body := a.readVerified(w, r)
	if body == nil {
		return
	}
	challenge, err := a.acceptEvent(r.Context(), body)
	switch {
	case errors.Is(err, errBadPayload):
		http.Error(w, err.Error(), http.StatusBadRequest)
	case err != nil:
		a.notAccepted(w, r, "slack event not accepted", err)
	case challenge != "":
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, challenge)
	default:
		w.WriteHeader(http.StatusOK)
	}
	a.metrics.ackSeconds.Observe(time.Since(start).Seconds())
}

var errBadPayload = errors.New("slack: malformed payload")

// notAccepted answers a request that could not be recorded: Slack retries
// it later. An unreachable database is a 503.
func (a *Adapter) notAccepted(w http.ResponseWriter, r *http.Request, msg string, err error) {
	a.log.ErrorContext(r.Context(), msg, "err", err)
	if errors.Is(engine.Unavailable(err), engine.ErrUnavailable) {
		w.Header().Set("Retry-After", "5")
		http.Error(w, "try again", http.StatusServiceUnavailable)
		return
	}
	http.Error(w, "try again", http.StatusInternalServerError)
}

// acceptEvent takes one Events API envelope (an HTTP body or a Socket Mode
// payload): it answers url_verification with the challenge, records an
// event it will act on (a redelivered event_id is dropped) and queues the
// work. It returns once the event is durably recorded.
func (a *Adapter) acceptEvent(ctx context.Context, body []byte) (challenge string, err error) {
	challenge, key, w, err := a.eventWork(ctx, body, true)
	if err != nil || w.job == nil {
		return challenge, err
	}
	return "", a.record(ctx, key, kindEvent, body, w)
}

// eventWork parses an Events API envelope into the url_verification
// challenge, or the inbox key and work of an event to act on (no job for
// the others). count counts the event as received (not when resumed).
func (a *Adapter) eventWork(ctx context.Context, body []byte, count bool) (challenge, key string, w work, err error) {
	outer, err := slackevents.ParseEvent(json.RawMessage(body), slackevents.OptionNoVerifyToken())
	if err != nil {
		return "", "", work{}, fmt.Errorf("%w: %v", errBadPayload, err)
	}
	switch outer.Type {
	case slackevents.URLVerification:
		v, ok := outer.Data.(*slackevents.EventsAPIURLVerificationEvent)
		if !ok {
			return "", "", work{}, errBadPayload
		}
		return v.Challenge, "", work{}, nil
	case slackevents.CallbackEvent:
	default:
		return "", "", work{}, nil
	}
	cb, ok := outer.Data.(*slackevents.EventsAPICallbackEvent)
	if !ok || cb.EventID == "" {
		return "", "", work{}, fmt.Errorf("%w: event_callback without event_id", errBadPayload)
	}
	if count {
		a.metrics.events.WithLabelValues(outer.InnerEvent.Type).Inc()
	}
	w.queue, w.job = a.eventJob(ctx, cb.TeamID, outer.InnerEvent.Data)
	return "", "event:" + cb.EventID, w, nil
}

// work is what a request asks for: a job, queued under its conversation.
type work struct {
	queue string
	job   func(context.Context)
}

// eventJob turns an inner event into queued work, or nil to ignore it.
func (a *Adapter) eventJob(ctx context.Context, team string, ev any) (string, func(context.Context)) {
	switch ev := ev.(type) {
	case *slackevents.AppMentionEvent:
		if ev.BotID != "" || ev.User == "" || ev.User == a.botUser(ctx) {
			return "", nil
		}
		thread := firstNonEmpty(ev.ThreadTimeStamp, ev.TimeStamp)
		return a.turnJob(team, ev.Channel, thread, ev.User, ev.Text, ev.TimeStamp, true)
	case *slackevents.MessageEvent:
		if ev.SubType != "" || ev.BotID != "" || ev.User == "" || ev.User == a.botUser(ctx) {
			return "", nil
		}
		switch {
		case ev.ChannelType == "im":
			return a.turnJob(team, ev.Channel, ev.ThreadTimeStamp, ev.User, ev.Text, ev.TimeStamp, false)
		case ev.ThreadTimeStamp != "" && !strings.Contains(ev.Text, "<@"+a.botUserID) && a.ownThread(ctx, ev.Channel, ev.ThreadTimeStamp):
			// A reply in a thread the assistant answers in needs no
			// mention (one with a mention comes as app_mention too).
			return a.turnJob(team, ev.Channel, ev.ThreadTimeStamp, ev.User, ev.Text, ev.TimeStamp, true)
		}
	case *slackevents.AssistantThreadStartedEvent:
		at := ev.AssistantThread
		if at.UserID == "" || at.ChannelID == "" || at.ThreadTimeStamp == "" {
			return "", nil
		}
		return at.ChannelID + "/" + at.ThreadTimeStamp, func(ctx context.Context) {
			a.assistantThread(ctx, at.UserID, at.ChannelID, at.ThreadTimeStamp)
		}
	case *slackevents.AppHomeOpenedEvent:
		if ev.Tab != "home" || ev.User == "" {
			return "", nil
		}
		user := ev.User
		return "home/" + user, func(ctx context.Context) { a.publishHome(ctx, user) }
	}
	return "", nil
}

// ownThread reports whether the assistant holds a conversation in this
// channel thread.
func (a *Adapter) ownThread(ctx context.Context, channel, thread string) bool {
	ok, err := a.cfg.Shop.HasConversation(ctx, engine.ConversationKey{Channel: "slack", ChatID: channel, ThreadID: thread})
	if err != nil {
		a.log.WarnContext(ctx, "slack thread lookup failed", "channel_id", channel, "err", err)
	}
	return ok
}

// turnJob is the work for one message: a turn answered in channel (in
// thread when set).
func (a *Adapter) turnJob(team, channel, thread, user, text, ts string, shared bool) (string, func(context.Context)) {
	text = cleanText(text, a.botUserID)
	if text == "" || channel == "" {
		return "", nil
	}
	key := channel + "/" + thread
	return key, func(ctx context.Context) {
		t := engine.Turn{
			Channel: "slack", ChatID: channel, ThreadID: thread, UserID: user, Shared: shared,
			UserName: a.api.userName(ctx, user, user), Text: text, DedupKey: "msg:" + channel + ":" + ts,
		}
		run := func() { a.runTurn(ctx, t, a.newReply(channel, thread, team, user)) }
		if shared || thread == "" {
			run()
			return
		}
		// A thread of the app's DM: an assistant thread (assistant.go).
		a.assistantTurn(ctx, user, channel, thread, text, !a.ownThread(ctx, channel, thread), run)
	}
}

// runTurn hands a turn to the engine; a failure the engine did not tell
// the shopper about (a rate limit) is said here.
func (a *Adapter) runTurn(ctx context.Context, t engine.Turn, r replier) {
	err := a.cfg.Engine.Handle(ctx, t, r)
	if errors.Is(err, engine.ErrRateLimited) {
		_ = r.Send(ctx, engine.Event{Kind: engine.EventError, Text: engine.PoliteMessage(err, t.Locale)})
	} else if err != nil && !errors.Is(err, engine.ErrBadTurn) && !errors.Is(err, engine.ErrReplayed) {
		a.log.ErrorContext(ctx, "slack turn failed", "channel_id", t.ChatID, "thread", t.ThreadID, "err", err)
	}
	r.finish(ctx)
}

// replier is a Sink that may hold back its last message.
type replier interface {
	engine.Sink
	finish(ctx context.Context)
}

var (
	mentionRE = regexp.MustCompile(`<@[UW][A-Z0-9]+(\|[^>]*)?>`)
	linkRE    = regexp.MustCompile(`<((?:https?|mailto):[^|>]+)(?:\|([^>]*))?>`)
)

// cleanText turns Slack's message markup into what the shopper typed:
// the bot's mention removed, links to their label, entities unescaped.
func cleanText(s, botUser string) string {
	s = mentionRE.ReplaceAllStringFunc(s, func(m string) string {
		if botUser == "" || strings.HasPrefix(m, "<@"+botUser) {
			return ""
		}
		return m
	})
	s = linkRE.ReplaceAllStringFunc(s, func(m string) string {
		p := linkRE.FindStringSubmatch(m)
		return firstNonEmpty(p[2], p[1])
	})
	s = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)
	return strings.TrimSpace(s)
}
