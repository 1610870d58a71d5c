package slack

// The channel's health as the process reports it: auth.test on demand,
// and the moment of each request received.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/slack-go/slack"
)

// TokenRefusedError is Slack refusing the bot token (auth.test answered
// invalid_auth, token_revoked, …).
type TokenRefusedError struct {
	Code string // Slack's error string
}

func (e *TokenRefusedError) Error() string {
	return "slack: the bot token was refused (" + e.Code + ")"
}

// refusedCodes are the auth.test errors that mean the token itself is bad.
var refusedCodes = map[string]bool{
	"invalid_auth": true, "not_authed": true, "account_inactive": true,
	"token_revoked": true, "token_expired": true, "not_allowed_token_type": true,
}

// Identity is who the bot token belongs to.
type Identity struct {
	Workspace string // the team's name, or its id when the name is not given
	Bot       string // the bot user's name
}

// Identify runs auth.test (every call asks Slack again) and returns the
// workspace and bot the token belongs to. A refused token is a
// *TokenRefusedError.
func (a *Adapter) Identify(ctx context.Context) (Identity, error) {
	var res *slack.AuthTestResponse
	err := a.api.do(ctx, "auth.test", func(ctx context.Context) (err error) {
		res, err = a.client.AuthTestContext(ctx)
		return err
	})
	var se slack.SlackErrorResponse
	switch {
	case errors.As(err, &se) && refusedCodes[se.Err]:
		return Identity{}, &TokenRefusedError{Code: se.Err}
	case err != nil:
		return Identity{}, fmt.Errorf("slack: auth.test: %w", err)
	}
	id := Identity{Workspace: res.Team, Bot: res.User}
	if id.Workspace == "" {
		id.Workspace = res.TeamID
	}
	return id, nil
}

// received tells Config.Received that a request came in.
func (a *Adapter) received(at time.Time) {
	if a.cfg.Received != nil {
		a.cfg.Received(at)
	}
}
