package engine

import (
	"context"
	"sync"
	"time"

	"shopbot/catalog"
	"shopbot/engine/llm"
)

// settingsTTL is how long overrides are reused before they are read again:
// a changed setting applies within a second, and a busy shop reads the
// settings once a second, not once a turn.
const settingsTTL = time.Second

// liveSettings caches the merchant settings (catalog.Settings; zero
// fields keep the Config's value) and the model client they select.
type liveSettings struct {
	mu     sync.Mutex
	read   time.Time
	val    catalog.Settings
	ok     bool
	models map[string]llm.Model // model clients by name, built on first use
}

// withSettings returns the engine a turn runs with: e itself when no
// settings hook is configured or it fails (the static Config holds), or a
// shallow copy whose Config carries the current overrides.
func (e *Engine) withSettings(ctx context.Context) *Engine {
	if e.cfg.Settings == nil {
		return e
	}
	o, model, ok := e.live.get(ctx, e)
	if !ok {
		return e
	}
	c := *e
	if o.ShopName != "" {
		c.cfg.ShopName = o.ShopName
	}
	if o.Currency != "" {
		c.cfg.Currency = o.Currency
	}
	if o.PromptExtra != "" {
		c.cfg.PromptExtra = o.PromptExtra
	}
	if o.MaxRounds > 0 {
		c.cfg.MaxRounds = min(o.MaxRounds, 20)
	}
	if model != nil {
		c.cfg.Model = model
	}
	if o.RateLimit > 0 && o.RateWindow > 0 {
		c.cfg.RateLimit, c.cfg.RateWindow = o.RateLimit, o.RateWindow
	}
	return &c
}

func (l *liveSettings) get(ctx context.Context, e *Engine) (catalog.Settings, llm.Model, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := e.cfg.Now()
	if !l.ok || now.Sub(l.read) >= settingsTTL || now.Before(l.read) {
		o, err := e.cfg.Settings(ctx)
		if err != nil {
			e.log.WarnContext(ctx, "settings unreadable, static configuration applies", "err", err)
			return catalog.Settings{}, nil, false
		}
		l.val, l.ok, l.read = o, true, now
	}
	return l.val, l.model(e.cfg.Model, l.val.Model), true
}

// modelSwitcher is a model client that can make a sibling asking another
// model of the same server with the same settings (openai.Client).
type modelSwitcher interface {
	llm.Model
	ModelName() string
	WithModel(name string) llm.Model
}

// model returns the client for the named model: nil when the name is empty
// or the configured one's, or when the configured client cannot switch;
// else a sibling of it, built once per name.
func (l *liveSettings) model(base llm.Model, name string) llm.Model {
	sw, ok := base.(modelSwitcher)
	if name == "" || !ok || sw.ModelName() == name {
		return nil
	}
	if m, ok := l.models[name]; ok {
		return m
	}
	if l.models == nil {
		l.models = map[string]llm.Model{}
	}
	m := sw.WithModel(name)
	l.models[name] = m
	return m
}
