package slack

import (
	"context"
	"errors"
	"log/slog"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"
)

// RunSocketMode receives events, interactions and slash commands over
// Socket Mode (SLACK_APP_TOKEN) until ctx ends. Each request goes
// through the same accept functions as the HTTP endpoints and is
// acknowledged once accepted; a request that could not be recorded is
// left unacknowledged, so Slack delivers it again.
func (a *Adapter) RunSocketMode(ctx context.Context) error {
	if a.cfg.AppToken == "" {
		return errors.New("slack: socket mode needs SLACK_APP_TOKEN")
	}
	sm := socketmode.New(a.client, socketmode.OptionLog(slog.NewLogLogger(a.log.Handler(), slog.LevelDebug)))
	go a.socketLoop(ctx, sm)
	return sm.RunContext(ctx)
}

func (a *Adapter) socketLoop(ctx context.Context, sm *socketmode.Client) {
	for {
		select {
		case <-ctx.Done():
			return
		case evt := <-sm.Events:
			if evt.Request == nil || evt.Request.EnvelopeID == "" {
				continue
			}
			resp, err := a.acceptSocket(ctx, evt)
			switch {
			case errors.Is(err, errBadPayload):
				a.log.WarnContext(ctx, "slack socket request rejected", "type", evt.Type, "err", err)
			case err != nil:
				a.log.ErrorContext(ctx, "slack socket request not accepted", "type", evt.Type, "err", err)
				continue // not acknowledged: Slack retries
			}
			if err := sm.AckCtx(ctx, evt.Request.EnvelopeID, resp); err != nil {
				a.log.WarnContext(ctx, "slack socket ack failed", "err", err)
			}
		}
	}
}

// acceptSocket feeds one Socket Mode request to the accept function of
// its kind; the result is the ack's payload.
func (a *Adapter) acceptSocket(ctx context.Context, evt socketmode.Event) (any, error) {
	if evt.Request.RetryAttempt > 0 {
		a.metrics.retries.Inc()
	}
	switch evt.Type {
	case socketmode.EventTypeEventsAPI:
		_, err := a.acceptEvent(ctx, evt.Request.Payload)
		return nil, err
	case socketmode.EventTypeInteractive:
		return nil, a.acceptInteraction(ctx, evt.Request.Payload)
	case socketmode.EventTypeSlashCommand:
		cmd, ok := evt.Data.(slack.SlashCommand)
		if !ok {
			return nil, errBadPayload
		}
		msg, err := a.acceptCommand(ctx, cmd)
		if msg == nil {
			return nil, err
		}
		return msg, err
	}
	return nil, nil
}
