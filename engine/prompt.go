package engine

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"sync"
	"text/template"

	"shopbot/catalog"
	"shopbot/engine/session"
)

//go:embed prompts/*.tmpl
var promptFS embed.FS

var prompts = template.Must(template.ParseFS(promptFS, "prompts/*.tmpl"))

// promptData fills prompts/system.tmpl.
type promptData struct {
	ShopName  string
	Channel   string
	Shared    bool
	Today     string
	Currency  string
	Language  string
	CartUnits int
	CartTotal string
	Focus     string // "Title (SKU)" of the product in focus
	Extra     string // merchant's additions to the prompt
}

// systemPrompt renders the system message for a session.
func (e *Engine) systemPrompt(ctx context.Context, s *session.Session) (string, error) {
	d := promptData{
		ShopName: e.cfg.ShopName, Channel: s.Channel, Shared: s.Scope.Shared(),
		Today: s.Now.Format("Monday, 2 January 2006"), Currency: s.Currency,
		Language: languageName(s.Locale), Extra: e.cfg.PromptExtra,
	}
	var cart catalog.CartSummary
	if s.OpenCart != nil {
		cart, s.OpenCart = *s.OpenCart, nil
	} else {
		var err error
		if cart, err = catalog.SummarizeCart(ctx, e.cfg.DB, s.Scope); err != nil {
			return "", err
		}
	}
	if cart.Units > 0 {
		d.CartUnits, d.CartTotal = cart.Units, catalog.FormatPrice(cart.Total, cart.Currency)
	}
	if s.State.Focus != "" {
		if p, err := catalog.GetProduct(ctx, e.cfg.DB, s.State.Focus); err == nil {
			d.Focus = fmt.Sprintf("%s (%s)", p.Title, p.SKU)
		}
	}
	return renderedPrompts.render(d)
}

// renderedPrompts keeps system prompts already rendered: the data is the
// whole input of the template, and most turns of a day repeat one (the
// same shop, channel, language and often cart), so a turn skips the
// template. Bounded: the map is dropped when it reaches promptCacheSize.
var renderedPrompts = &promptCache{m: map[promptData]string{}}

const promptCacheSize = 1024

type promptCache struct {
	mu sync.Mutex
	m  map[promptData]string
}

func (c *promptCache) render(d promptData) (string, error) {
	c.mu.Lock()
	out, ok := c.m[d]
	c.mu.Unlock()
	if ok {
		return out, nil
	}
	var b bytes.Buffer
	if err := prompts.ExecuteTemplate(&b, "system.tmpl", d); err != nil {
		return "", fmt.Errorf("engine: render system prompt: %w", err)
	}
	out = b.String()
	c.mu.Lock()
	if len(c.m) >= promptCacheSize {
		clear(c.m)
	}
	c.m[d] = out
	c.mu.Unlock()
	return out, nil
}

func languageName(locale string) string {
	switch {
	case len(locale) >= 2 && locale[:2] == "ru":
		return "Russian"
	case len(locale) >= 2 && locale[:2] == "de":
		return "German"
	}
	return "English"
}
