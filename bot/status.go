package main

// Channel status: whether Telegram, Slack and the model answer, as this
// process sees them. Each configured channel is checked at start (all at
// once, briefly, while the database is prepared) and then periodically;
// adapters report each update they receive. The startup banner, /statusz,
// the panel's Settings page and shopbot_channel_up read the same board.

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"shopbot/admin"
)

const (
	// statusEvery is how often the channels are checked after start.
	statusEvery = 5 * time.Minute
	// startCheckTimeout bounds the checks at start: readiness waits for
	// them at most this long.
	startCheckTimeout = 3 * time.Second
	// checkTimeout bounds each periodic check.
	checkTimeout = 10 * time.Second
)

// channelProbe is how one channel is checked.
type channelProbe struct {
	name string // "telegram", "slack", "model"
	// off, when the channel is not configured, says why ("TELEGRAM_BOT_TOKEN unset").
	off string
	// mode says how it runs ("long polling", "Socket Mode").
	mode string
	// configErr is a mistake found without asking the platform (a
	// malformed token): shown as the channel's error, never checked.
	configErr string
	// check asks the platform who we are there; explain turns its error
	// into a sentence for the merchant.
	check   func(ctx context.Context) (identity string, err error)
	explain func(err error) string
}

// channelState is one channel as this process last saw it: an element of
// /statusz's "channels".
type channelState struct {
	Channel    string `json:"channel"`
	Configured bool   `json:"configured"`
	Connected  bool   `json:"connected"`
	// Name is who the shop is there: the bot's @username, the Slack
	// workspace and bot, the model.
	Name string `json:"name,omitempty"`
	Mode string `json:"mode,omitempty"`
	// Off says why an unconfigured channel is off.
	Off           string     `json:"off,omitempty"`
	LastUpdateAt  *time.Time `json:"last_update_received_at,omitempty"`
	LastError     string     `json:"last_error,omitempty"`
	LastErrorAt   *time.Time `json:"last_error_at,omitempty"`
	LastCheckedAt *time.Time `json:"last_checked_at,omitempty"`
	stopped       bool       // the adapter gave up: not connected whatever a check says
	checkedOK     bool       // the last check succeeded
}

// channelBoard holds every channel's state.
type channelBoard struct {
	now func() time.Time
	up  *prometheus.GaugeVec // shopbot_channel_up{channel}

	mu     sync.Mutex
	probes []channelProbe
	states map[string]*channelState
}

func newChannelBoard(up *prometheus.GaugeVec, now func() time.Time) *channelBoard {
	return &channelBoard{now: now, up: up, states: map[string]*channelState{}}
}

// add registers a channel; call it before the checks start.
func (b *channelBoard) add(p channelProbe) {
	b.mu.Lock()
	defer b.mu.Unlock()
	st := &channelState{Channel: p.name, Configured: p.off == "", Mode: p.mode, Off: p.off}
	if p.configErr != "" {
		at := b.now()
		st.LastError, st.LastErrorAt = p.configErr, &at
	}
	b.probes = append(b.probes, p)
	b.states[p.name] = st
	b.setUpLocked(st)
}

// checkAll checks every configured channel at once, each within timeout,
// and returns when all have answered or timed out.
func (b *channelBoard) checkAll(ctx context.Context, timeout time.Duration) {
	b.mu.Lock()
	probes := append([]channelProbe(nil), b.probes...)
	b.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range probes {
		if p.off != "" || p.configErr != "" || p.check == nil {
			continue
		}
		wg.Go(func() {
			cctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			name, err := p.check(cctx)
			if ctx.Err() != nil {
				return // shutting down: not the channel's fault
			}
			b.record(p, name, err)
		})
	}
	wg.Wait()
}

// record stores a check's outcome.
func (b *channelBoard) record(p channelProbe, name string, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	st, at := b.states[p.name], b.now()
	st.LastCheckedAt = &at
	st.checkedOK = err == nil
	if err != nil {
		st.LastError, st.LastErrorAt = p.explain(err), &at
	} else {
		st.Name = name
	}
	st.Connected = st.checkedOK && !st.stopped
	b.setUpLocked(st)
}

// stopped records that a channel's adapter has given up (its loop ended
// with err): it stays disconnected until the process restarts.
func (b *channelBoard) stopped(name, why string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	st, at := b.states[name], b.now()
	if st == nil {
		return
	}
	st.stopped, st.Connected = true, false
	st.LastError, st.LastErrorAt = why, &at
	b.setUpLocked(st)
}

// receiver is the callback an adapter calls for each update it receives.
func (b *channelBoard) receiver(name string) func(time.Time) {
	return func(at time.Time) {
		b.mu.Lock()
		defer b.mu.Unlock()
		if st := b.states[name]; st != nil && (st.LastUpdateAt == nil || at.After(*st.LastUpdateAt)) {
			st.LastUpdateAt = &at
		}
	}
}

func (b *channelBoard) setUpLocked(st *channelState) {
	if b.up == nil || !st.Configured {
		return
	}
	v := 0.0
	if st.Connected {
		v = 1
	}
	b.up.WithLabelValues(st.Channel).Set(v)
}

// start checks every channel once (at most startCheckTimeout) and then
// every tick until ctx ends; done is closed once the first round is in.
func (b *channelBoard) start(ctx context.Context, ticks <-chan time.Time) (done <-chan struct{}) {
	first := make(chan struct{})
	go func() {
		b.checkAll(ctx, startCheckTimeout)
		close(first)
		for {
			select {
			case <-ctx.Done():
				return
			case <-ticks:
				b.checkAll(ctx, checkTimeout)
			}
		}
	}()
	return first
}

// snapshot is a copy of every channel's state, in the order added.
func (b *channelBoard) snapshot() []channelState {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]channelState, 0, len(b.probes))
	for _, p := range b.probes {
		out = append(out, *b.states[p.name])
	}
	return out
}

// statusReport is the body of GET /statusz.
type statusReport struct {
	Scope    string         `json:"scope"`
	Process  string         `json:"process"`
	Every    string         `json:"checked_every"`
	Channels []channelState `json:"channels"`
}

// ServeHTTP answers GET /statusz: each channel's state as JSON. It is
// about channels only; /readyz says whether the shop itself can serve.
func (b *channelBoard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host, _ := os.Hostname()
	rep := statusReport{
		Scope:   "this process only: each replica checks the channels and counts the updates it receives itself",
		Process: host, Every: statusEvery.String(), Channels: b.snapshot(),
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(rep)
}

// panel is the board as the admin Settings page shows it.
func (b *channelBoard) panel() []admin.ChannelStatus {
	var out []admin.ChannelStatus
	for _, st := range b.snapshot() {
		c := admin.ChannelStatus{
			Channel: st.Channel, Configured: st.Configured, Connected: st.Connected,
			Name: st.Name, Mode: st.Mode, Off: st.Off, LastError: st.LastError,
		}
		c.LastUpdate, c.LastErrorAt, c.LastChecked = deref(st.LastUpdateAt), deref(st.LastErrorAt), deref(st.LastCheckedAt)
		out = append(out, c)
	}
	return out
}

func deref(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}

// bannerLine is a channel's line in the startup banner: how it runs and
// who it is, or why it is off, or its error in a sentence.
func (st channelState) bannerLine() string {
	switch {
	case !st.Configured && st.Channel == "model":
		return st.Off // the offline planner answers: not a channel that is off
	case !st.Configured:
		return "off (" + st.Off + ")"
	case !st.Connected && st.LastError != "":
		return "error: " + st.LastError
	case !st.Connected:
		return "not checked yet (" + st.Mode + ")"
	}
	line := "on"
	if st.Mode != "" {
		line += " (" + st.Mode + ")"
	}
	if st.Name != "" {
		line += " · " + st.Name
	}
	return line
}
