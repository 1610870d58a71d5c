package telegram

// The channel's health as the process reports it: the token's shape,
// one getMe on demand, and the moment of each update received.

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/go-telegram/bot"
)

// TokenRefusedError is the Bot API refusing the bot token: 401 for a
// revoked or wrong token, 404 for one Telegram does not know at all.
type TokenRefusedError struct {
	Status string // "401 Unauthorized"
}

func (e *TokenRefusedError) Error() string {
	return "telegram: the Bot API refused the token (" + e.Status + ")"
}

// tokenShape is what BotFather hands out: the bot's numeric id, a colon,
// and a secret of 35 URL-safe characters (30 or more accepted).
var tokenShape = regexp.MustCompile(`^[0-9]+:[A-Za-z0-9_-]{30,}$`)

// CheckToken says whether token has the shape of a bot token, without
// asking Telegram. The error never repeats the token.
func CheckToken(token string) error {
	if !tokenShape.MatchString(token) {
		return errors.New("telegram: the token is not shaped like a bot token (digits, a colon, then 30 or more letters, digits, - or _)")
	}
	return nil
}

// Check asks the Bot API who the bot is (one getMe, no retry) and returns
// its @username. A refused token is a *TokenRefusedError; other failures
// (network, server) never carry the token.
func (a *Adapter) Check(ctx context.Context) (string, error) {
	me, err := a.bot.GetMe(ctx)
	switch {
	case err != nil && ctx.Err() != nil:
		return "", fmt.Errorf("telegram: getMe: %w", ctx.Err())
	case err != nil:
		return "", a.getMeError(err)
	}
	return me.Username, nil
}

// getMeError classifies a failed getMe and scrubs the token (the library's
// transport errors quote the request URL, which holds it).
func (a *Adapter) getMeError(err error) error {
	switch {
	case errors.Is(err, bot.ErrorUnauthorized):
		return &TokenRefusedError{Status: "401 Unauthorized"}
	case errors.Is(err, bot.ErrorNotFound):
		return &TokenRefusedError{Status: "404 Not Found"}
	}
	return fmt.Errorf("telegram: getMe: %s", strings.ReplaceAll(err.Error(), a.cfg.Token, "<token>"))
}

// received tells Config.Received that an update came in.
func (a *Adapter) received(at time.Time) {
	if a.cfg.Received != nil {
		a.cfg.Received(at)
	}
}
