package admin

import "time"

// ChannelStatus is one channel (Telegram, Slack, the model) as this
// process last saw it; the Settings page lists them under Channels.
// bot/status.go checks the channels and fills it in.
type ChannelStatus struct {
	Channel    string // "telegram", "slack", "model"
	Configured bool
	Connected  bool
	Name       string // who the shop is there: @bot, workspace and bot, model
	Mode       string // how it runs: "long polling", "Socket Mode", "gpt-4o-mini at OpenAI"
	Off        string // why an unconfigured channel is off
	LastError  string // a sentence, never a Go error
	// Zero times are "never".
	LastUpdate, LastErrorAt, LastChecked time.Time
}

// State is the channel's state in a word or two.
func (c ChannelStatus) State() string {
	switch {
	case !c.Configured:
		return "off"
	case c.Connected:
		return "connected"
	case c.LastError != "":
		return "error"
	}
	return "not checked yet"
}

// channels is the Channels section of the Settings page; nil when the
// server has no channel board (tests, commands other than serve).
func (s *Server) channels() []ChannelStatus {
	if s.cfg.Channels == nil {
		return nil
	}
	return s.cfg.Channels()
}
