package admin

import (
	"context"
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"shopbot/adapters"
	"shopbot/catalog"
	"shopbot/engine/view"
)

// errNoNotifier: the panel runs without any channel adapter (no Notifier).
var errNoNotifier = errors.New("admin: no notifier configured")

// channelNames are the channels as a merchant calls them.
var channelNames = map[string]string{
	"telegram": "Telegram",
	"slack":    "Slack",
	"web":      "the web chat",
	"console":  "the terminal",
}

func channelName(channel string) string {
	if n, ok := channelNames[channel]; ok {
		return n
	}
	return channel
}

// told is the sentence a flash ends with after a notice to a shopper (an
// order's status or refund, a merchant's reply): whether it reached them,
// in words a merchant reads. A failure's Go error goes to the log with
// what, never to the page. missed says what the shopper did not get:
// "they were not notified", "they did not get your reply".
func (s *Server) told(ctx context.Context, what, channel string, err error, missed string) string {
	name := channelName(channel)
	if err == nil {
		return "The shopper was notified in " + name + "."
	}
	s.log.WarnContext(ctx, "shopper notice not delivered", "what", what, "channel", channel, "err", err)
	switch {
	case channel == "console":
		return "The shopper chats on the terminal, which cannot receive notices; " + missed + "."
	case errors.Is(err, adapters.ErrNoRoute), errors.Is(err, errNoNotifier):
		return "The shopper chats on " + name + ", which is not connected to this shop right now; " + missed + "."
	case errors.Is(err, view.ErrUnreachable):
		return "The shopper can no longer be reached on " + name + " (they blocked the bot or left the chat); " + missed + "."
	case errors.Is(err, context.DeadlineExceeded):
		return capitalize(name) + " did not answer in time; " + missed + ", as far as we know."
	default:
		return capitalize(name) + " did not take the message; " + missed + ". The details are in the log."
	}
}

// sentence is an error the merchant can act on (a conflict, a refused
// change, invalid input) as a sentence: without the packages' prefixes,
// capitalized, with a full stop.
func sentence(err error) string {
	msg := err.Error()
	for _, prefix := range []string{"catalog: ", "admin: "} {
		msg = strings.ReplaceAll(msg, prefix, "")
	}
	// The vocabulary's bare words add nothing to the sentence around them.
	for _, word := range []error{catalog.ErrConflict, catalog.ErrInvalid} {
		msg = strings.ReplaceAll(msg, ": "+word.Error(), "")
		msg = strings.ReplaceAll(msg, word.Error()+": ", "")
	}
	msg = capitalize(strings.TrimSpace(msg))
	if msg != "" && !strings.ContainsAny(msg[len(msg)-1:], ".!?") {
		msg += "."
	}
	return msg
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
