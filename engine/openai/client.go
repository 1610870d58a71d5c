package openai

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"shopbot/engine/llm"
)

// Config configures the OpenAI-compatible client.
type Config struct {
	// APIKey is sent as a bearer token. Empty sends no Authorization header
	// at all, which is what local servers (Ollama, llama.cpp) expect.
	APIKey string
	// BaseURL of the API, ending in /v1; empty means OpenAI.
	BaseURL string
	Model   string
	// RequestTimeout bounds each attempt, streaming included; default 60s.
	RequestTimeout time.Duration
	// MaxRetries after the first attempt; 0 means the default 3, negative
	// means none.
	MaxRetries int
	HTTPClient *http.Client // optional (tests)
	Logger     *slog.Logger // optional; never given the API key or message contents
}

// Retry policy. Retry-After can ask for long waits; a shopper is waiting,
// so a single wait is capped and the engine falls back to the planner
// rather than stall longer.
const (
	defaultRequestTimeout = 60 * time.Second
	defaultMaxRetries     = 3
	initialBackoff        = 500 * time.Millisecond
	maxBackoff            = 8 * time.Second
	maxServerWait         = 30 * time.Second
)

// Client is the production llm.Model: chat completions over any
// OpenAI-compatible server, always streamed, retried by us rather than by
// the SDK so that a retry never repeats text the shopper already saw.
type Client struct {
	chat       sdk.ChatCompletionService
	models     sdk.ModelService // Check's GET /models
	model      string
	apiKey     string // kept only to scrub it from error text
	timeout    time.Duration
	maxRetries int
	backoffMin time.Duration // first retry's ceiling; tests shrink it
	backoffMax time.Duration
	logger     *slog.Logger
	configErr  error // a bad config fails every Chat without a request
	tools      toolsCache
	bodySize   atomic.Int32 // size hint for the next request body
}

// New returns a client for cfg. It reads no environment variables:
// the bot's config is the only source of settings.
func New(cfg Config) *Client {
	o := &Client{
		model:      cfg.Model,
		apiKey:     cfg.APIKey,
		timeout:    cmp.Or(max(cfg.RequestTimeout, 0), defaultRequestTimeout),
		maxRetries: cfg.MaxRetries,
		backoffMin: initialBackoff,
		backoffMax: maxBackoff,
		logger:     cfg.Logger,
	}
	if o.maxRetries == 0 {
		o.maxRetries = defaultMaxRetries
	}
	o.maxRetries = max(o.maxRetries, 0)
	if o.logger == nil {
		o.logger = slog.New(slog.DiscardHandler)
	}
	httpClient := cfg.HTTPClient
	if httpClient == nil {
		httpClient = newHTTPClient()
	}
	// NewChatCompletionService, unlike sdk.NewClient, does not read
	// OPENAI_* variables, so nothing ambient changes what we send.
	opts := []option.RequestOption{
		option.WithEnvironmentProduction(),
		option.WithHTTPClient(httpClient),
		option.WithAPIKey(cfg.APIKey),
		option.WithMaxRetries(0),
	}
	if cfg.BaseURL != "" {
		o.configErr = checkBaseURL(cfg.BaseURL)
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	o.chat = sdk.NewChatCompletionService(opts...)
	o.models = sdk.NewModelService(opts...)
	return o
}

// newHTTPClient keeps more idle connections than the default two per
// host: chats run in parallel against the one API host, and re-dialing
// TLS for each turn adds latency the shopper feels. Thousands of turns can
// be waiting on the model at once (HTTP/1.1, as local servers speak, takes
// a connection each), and every connection past the idle limit was closed
// when its answer ended and dialed again for the next call: with 2,000
// chats and a limit of 512, `shopbot bench` left thousands of closed
// connections behind. A connection left idle is closed after the
// transport's IdleConnTimeout (90 s).
func newHTTPClient() *http.Client {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return &http.Client{}
	}
	t = t.Clone()
	t.MaxIdleConnsPerHost = 4096
	t.MaxIdleConns = 4096
	if t.DialContext != nil {
		t.DialContext = dialCopyConn(t.DialContext)
	}
	return &http.Client{Transport: t}
}

// checkBaseURL rejects what would otherwise fail on every request. The URL
// is not echoed: it may carry proxy credentials.
func checkBaseURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("base URL is not an absolute http(s) URL")
	}
	return nil
}

// Chat sends one chat completion, streaming text to onDelta, retrying
// transient failures until text has been streamed. Failures wrap
// llm.ErrModelUnavailable; a cancelled ctx returns ctx's error instead.
func (o *Client) Chat(ctx context.Context, req llm.ChatRequest, onDelta func(string)) (llm.ChatResponse, error) {
	if o.configErr != nil {
		return llm.ChatResponse{}, fmt.Errorf("engine: openai: %w: %v", llm.ErrModelUnavailable, o.configErr)
	}
	body, err := o.body(req)
	if err != nil {
		return llm.ChatResponse{}, fmt.Errorf("engine: openai: %w: %v", llm.ErrModelUnavailable, err)
	}
	var writes bodyWrites
	defer func() {
		if writes.done() {
			releaseBody(body)
		}
	}()
	ctx = writes.trace(ctx)
	out := &deltaGate{onDelta: onDelta}
	for attempt := 1; ; attempt++ {
		resp, err := o.attempt(ctx, body.Bytes(), out.emit)
		if err == nil {
			o.logger.DebugContext(ctx, "openai chat", "model", resp.Model, "attempts", attempt,
				"latency_ms", resp.Latency.Milliseconds(), "prompt_tokens", resp.PromptTokens, "completion_tokens", resp.CompletionTokens)
			return resp, nil
		}
		if ctx.Err() != nil {
			return llm.ChatResponse{}, fmt.Errorf("engine: openai: %w", ctx.Err())
		}
		f := o.classify(err)
		wait, retry := o.nextWait(ctx, attempt, f, out.emitted)
		o.logger.WarnContext(ctx, "openai attempt failed", "attempt", attempt, "status", f.status,
			"reason", f.reason, "retry", retry, "retry_in_ms", wait.Milliseconds())
		if !retry {
			return llm.ChatResponse{}, unavailableError(f, attempt, out.emitted)
		}
		if err := sleepCtx(ctx, wait); err != nil {
			return llm.ChatResponse{}, fmt.Errorf("engine: openai: waiting to retry: %w", err)
		}
	}
}

// deltaGate forwards text deltas and remembers whether any got through:
// after that a retry would show the shopper the start of the answer twice.
type deltaGate struct {
	onDelta func(string)
	emitted bool
}

func (g *deltaGate) emit(text string) {
	g.emitted = true
	if g.onDelta != nil {
		g.onDelta(text)
	}
}

var (
	errAttemptTimeout = errors.New("attempt timed out")
	errTruncated      = errors.New("stream ended before finish_reason")
)

// attempt runs one streamed request under its own deadline, so a server
// that stalls mid-stream costs one RequestTimeout, not the whole turn.
func (o *Client) attempt(ctx context.Context, body []byte, emit func(string)) (llm.ChatResponse, error) {
	actx, cancel := context.WithTimeoutCause(ctx, o.timeout, errAttemptTimeout)
	defer cancel()
	start := time.Now()
	// The SDK sends the request and turns error statuses into
	// *sdk.Error; we read the events (eventReader) and decode them into
	// our own chunk type (decodeEvent). The body already says
	// "stream": true.
	var raw *http.Response
	_, err := o.chat.New(actx, sdk.ChatCompletionNewParams{},
		option.WithRequestBody("application/json", bytes.NewReader(body)), option.WithResponseBodyInto(&raw))
	var acc streamAccumulator
	if err == nil {
		err = readStream(raw, &acc, emit)
	} else if raw != nil && raw.Body != nil {
		_ = raw.Body.Close()
	}
	if err != nil {
		if errors.Is(context.Cause(actx), errAttemptTimeout) {
			return llm.ChatResponse{}, fmt.Errorf("%w after %s", errAttemptTimeout, o.timeout)
		}
		return llm.ChatResponse{}, err
	}
	if !acc.finished {
		return llm.ChatResponse{}, errTruncated
	}
	resp := acc.response(o.model)
	resp.Latency = time.Since(start)
	return resp, nil
}

// readStream folds the stream's chunks into acc until [DONE] or its end,
// passing their text to emit, and closes it.
func readStream(raw *http.Response, acc *streamAccumulator, emit func(string)) error {
	if raw == nil || raw.Body == nil {
		return nil // no body: the stream ended before finish_reason
	}
	events := newEventReader(raw.Body)
	defer events.Close()
	for events.Next() {
		ev := events.Event()
		if bytes.HasPrefix(ev.Data, []byte("[DONE]")) {
			return nil
		}
		c, err := decodeEvent(ev)
		if err != nil {
			return err
		}
		if text := acc.add(c); text != "" {
			emit(text)
		}
	}
	return events.Err()
}

// ModelName is the model the client asks for.
func (o *Client) ModelName() string { return o.model }

// WithModel returns a client that asks for the named model of the same
// server, with the same key, timeouts, retries and logger.
func (o *Client) WithModel(name string) llm.Model {
	return &Client{
		chat: o.chat, model: name, apiKey: o.apiKey, timeout: o.timeout, maxRetries: o.maxRetries,
		backoffMin: o.backoffMin, backoffMax: o.backoffMax, logger: o.logger, configErr: o.configErr,
	}
}
