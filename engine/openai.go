package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"

	"shopbot/catalog"
)

// OpenAIConfig configures the OpenAI-compatible client.
type OpenAIConfig struct {
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

// OpenAI is the production Model: chat completions over any
// OpenAI-compatible server, always streamed, retried by us rather than by
// the SDK so that a retry never repeats text the shopper already saw.
type OpenAI struct {
	chat       openai.ChatCompletionService
	model      string
	apiKey     string // kept only to scrub it from error text
	timeout    time.Duration
	maxRetries int
	backoffMin time.Duration // first retry's ceiling; tests shrink it
	backoffMax time.Duration
	logger     *slog.Logger
	configErr  error // a bad config fails every Chat without a request
}

// NewOpenAI returns a client for cfg. It reads no environment variables:
// the bot's config is the only source of settings.
func NewOpenAI(cfg OpenAIConfig) *OpenAI {
	o := &OpenAI{
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
	// NewChatCompletionService, unlike openai.NewClient, does not read
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
	o.chat = openai.NewChatCompletionService(opts...)
	return o
}

// newHTTPClient keeps more idle connections than the default two per
// host: chats run in parallel against the one API host, and re-dialing
// TLS for each turn adds latency the shopper feels.
func newHTTPClient() *http.Client {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return &http.Client{}
	}
	t = t.Clone()
	t.MaxIdleConnsPerHost = 32
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
// ErrModelUnavailable; a cancelled ctx returns ctx's error instead.
func (o *OpenAI) Chat(ctx context.Context, req ChatRequest, onDelta func(string)) (ChatResponse, error) {
	if o.configErr != nil {
		return ChatResponse{}, fmt.Errorf("engine: openai: %w: %v", ErrModelUnavailable, o.configErr)
	}
	params, err := o.params(req)
	if err != nil {
		return ChatResponse{}, fmt.Errorf("engine: openai: %w: %v", ErrModelUnavailable, err)
	}
	out := &deltaGate{onDelta: onDelta}
	for attempt := 1; ; attempt++ {
		resp, err := o.attempt(ctx, params, out.emit)
		if err == nil {
			o.logger.DebugContext(ctx, "openai chat", "model", resp.Model, "attempts", attempt,
				"latency_ms", resp.Latency.Milliseconds(), "prompt_tokens", resp.PromptTokens, "completion_tokens", resp.CompletionTokens)
			return resp, nil
		}
		if ctx.Err() != nil {
			return ChatResponse{}, fmt.Errorf("engine: openai: %w", ctx.Err())
		}
		f := o.classify(err)
		wait, retry := o.nextWait(ctx, attempt, f, out.emitted)
		o.logger.WarnContext(ctx, "openai attempt failed", "attempt", attempt, "status", f.status,
			"reason", f.reason, "retry", retry, "retry_in_ms", wait.Milliseconds())
		if !retry {
			return ChatResponse{}, unavailableError(f, attempt, out.emitted)
		}
		if err := sleepCtx(ctx, wait); err != nil {
			return ChatResponse{}, fmt.Errorf("engine: openai: waiting to retry: %w", err)
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
func (o *OpenAI) attempt(ctx context.Context, params openai.ChatCompletionNewParams, emit func(string)) (ChatResponse, error) {
	actx, cancel := context.WithTimeoutCause(ctx, o.timeout, errAttemptTimeout)
	defer cancel()
	start := time.Now()
	stream := o.chat.NewStreaming(actx, params)
	defer stream.Close()
	var acc streamAccumulator
	for stream.Next() {
		if text := acc.add(stream.Current()); text != "" {
			emit(text)
		}
	}
	if err := stream.Err(); err != nil {
		if errors.Is(context.Cause(actx), errAttemptTimeout) {
			return ChatResponse{}, fmt.Errorf("%w after %s", errAttemptTimeout, o.timeout)
		}
		return ChatResponse{}, err
	}
	if !acc.finished {
		return ChatResponse{}, errTruncated
	}
	resp := acc.response(o.model)
	resp.Latency = time.Since(start)
	return resp, nil
}

// attemptFailure is one failed attempt, classified. reason is safe to log and to
// return: it never holds the API key or prompt text.
type attemptFailure struct {
	status    int // HTTP status; 0 when there was no response
	reason    string
	retryable bool
	after     time.Duration // the server's Retry-After, when hasAfter
	hasAfter  bool
}

func (o *OpenAI) classify(err error) attemptFailure {
	var (
		apiErr    *openai.Error
		streamErr *ssestream.StreamError
		syntaxErr *json.SyntaxError
		typeErr   *json.UnmarshalTypeError
		marshErr  *json.MarshalerError
		unsupErr  *json.UnsupportedTypeError
	)
	switch {
	case errors.As(err, &marshErr), errors.As(err, &unsupErr),
		// the SDK flattens encoding errors into text
		strings.Contains(err.Error(), "error calling MarshalJSON"), strings.Contains(err.Error(), "json: unsupported"):
		// The request itself cannot be encoded: every attempt would fail.
		return attemptFailure{reason: "encode request: " + o.scrub(err.Error()), retryable: false}
	case errors.As(err, &apiErr):
		return o.classifyStatus(apiErr)
	case errors.As(err, &streamErr):
		return attemptFailure{reason: "error event in stream", retryable: true}
	case errors.As(err, &syntaxErr), errors.As(err, &typeErr):
		return attemptFailure{reason: "malformed stream chunk", retryable: true}
	case errors.Is(err, errAttemptTimeout), errors.Is(err, errTruncated):
		return attemptFailure{reason: err.Error(), retryable: true}
	default:
		// No response at all: refused connection, reset, DNS, TLS. The SDK
		// retries these too; an unknown error is more likely network than bug.
		return attemptFailure{reason: "transport: " + o.scrub(err.Error()), retryable: true}
	}
}

func (o *OpenAI) classifyStatus(e *openai.Error) attemptFailure {
	f := attemptFailure{status: e.StatusCode, reason: cmp.Or(e.Code, e.Type, http.StatusText(e.StatusCode))}
	if e.Message != "" {
		f.reason += ": " + o.scrub(e.Message)
	}
	switch s := e.StatusCode; {
	case s == http.StatusTooManyRequests:
		// Out of credit is a 429 too, but waiting does not refill the account.
		f.retryable = e.Code != "insufficient_quota" && e.Type != "insufficient_quota"
	case s == http.StatusRequestTimeout, s == http.StatusConflict, s >= 500:
		f.retryable = true
	}
	if e.Response != nil {
		f.after, f.hasAfter = retryAfter(e.Response.Header, time.Now())
	}
	return f
}

// scrub keeps server and transport text short and free of the API key
// (OpenAI echoes a masked key on 401; a proxy might echo it whole).
func (o *OpenAI) scrub(s string) string {
	if o.apiKey != "" {
		s = strings.ReplaceAll(s, o.apiKey, "[redacted]")
	}
	const maxLen = 200
	if len(s) <= maxLen {
		return s
	}
	cut := maxLen
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// retryAfter reads the server's requested wait: retry-after-ms (OpenAI's
// precise form) first, then Retry-After in seconds or as an HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < float64(time.Hour/time.Millisecond) {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 && secs < float64(time.Hour/time.Second) {
		return time.Duration(secs * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// nextWait decides whether to retry after attempt failed, and how long to
// wait first: the server's Retry-After when given (capped), otherwise
// exponential backoff with full jitter so that many chats hitting one
// rate limit do not retry in lockstep.
func (o *OpenAI) nextWait(ctx context.Context, attempt int, f attemptFailure, emitted bool) (time.Duration, bool) {
	if !f.retryable || emitted || attempt > o.maxRetries {
		return 0, false
	}
	wait := o.jitteredBackoff(attempt)
	if f.hasAfter {
		wait = min(f.after, maxServerWait)
	}
	// Waiting past the caller's deadline only delays the planner's answer.
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
		return wait, false
	}
	return wait, true
}

func (o *OpenAI) jitteredBackoff(attempt int) time.Duration {
	ceiling := o.backoffMax
	if shift := attempt - 1; shift < 30 {
		ceiling = min(o.backoffMin<<shift, o.backoffMax)
	}
	if ceiling <= 0 {
		return 0
	}
	return rand.N(ceiling + 1)
}

func unavailableError(f attemptFailure, attempts int, emitted bool) error {
	what := f.reason
	if f.status != 0 {
		what = fmt.Sprintf("status %d: %s", f.status, f.reason)
	}
	note := fmt.Sprintf("%d attempt(s)", attempts)
	if emitted {
		note += ", after part of the answer was streamed"
	}
	return fmt.Errorf("engine: openai: %w: %s (%s)", ErrModelUnavailable, what, note)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// params builds the wire request. Tools go out as plain function tools:
// strict mode would demand every property be required, and our schemas
// have optional ones.
func (o *OpenAI) params(req ChatRequest) (openai.ChatCompletionNewParams, error) {
	msgs, err := messagesParam(req.Messages)
	if err != nil {
		return openai.ChatCompletionNewParams{}, err
	}
	p := openai.ChatCompletionNewParams{
		Model:         o.model,
		Messages:      msgs,
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	if len(req.Tools) == 0 {
		return p, nil // the API rejects tool_choice without tools
	}
	for _, t := range req.Tools {
		def := shared.FunctionDefinitionParam{Name: t.Name, Parameters: shared.FunctionParameters(t.Parameters)}
		if t.Description != "" {
			def.Description = openai.String(t.Description)
		}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(def))
	}
	p.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("auto")}
	p.ParallelToolCalls = openai.Bool(true)
	// Tool schemas were encoded once by NewToolbox, so they encode here too;
	// no second encoding of the whole request up front.
	return p, nil
}

func messagesParam(msgs []ChatMessage) ([]openai.ChatCompletionMessageParamUnion, error) {
	out := make([]openai.ChatCompletionMessageParamUnion, 0, len(msgs))
	for i, m := range msgs {
		switch m.Role {
		case catalog.RoleSystem:
			out = append(out, openai.SystemMessage(m.Content))
		case catalog.RoleUser:
			out = append(out, openai.UserMessage(m.Content))
		case catalog.RoleAssistant:
			out = append(out, assistantParam(m))
		case catalog.RoleTool:
			out = append(out, openai.ToolMessage(m.Content, m.ToolCallID))
		default:
			return nil, fmt.Errorf("message %d: role %q cannot be sent to the model", i, m.Role)
		}
	}
	return out, nil
}

// assistantParam replays an assistant turn. Content is left out (null)
// when the turn only called tools, as the API itself returns it.
func assistantParam(m ChatMessage) openai.ChatCompletionMessageParamUnion {
	var a openai.ChatCompletionAssistantMessageParam
	if m.Content != "" || len(m.ToolCalls) == 0 {
		a.Content.OfString = openai.String(m.Content)
	}
	for _, tc := range m.ToolCalls {
		a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
			OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
				ID: tc.ID,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
					Name:      tc.Name,
					Arguments: cmp.Or(tc.Arguments, "{}"), // servers parse it as JSON
				},
			},
		})
	}
	return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}
}

// streamAccumulator assembles one streamed completion. Only choice 0 counts: we
// never ask for more than one.
type streamAccumulator struct {
	text     strings.Builder
	calls    []*toolCallBuilder
	byIndex  map[int64]*toolCallBuilder
	model    string
	usage    openai.CompletionUsage
	finished bool
}

type toolCallBuilder struct {
	id, name string
	args     strings.Builder
}

// add folds one chunk in and returns its new text.
func (a *streamAccumulator) add(c openai.ChatCompletionChunk) string {
	a.model = cmp.Or(a.model, c.Model)
	if c.Usage.PromptTokens != 0 || c.Usage.CompletionTokens != 0 {
		a.usage = c.Usage
	}
	var text string
	for _, choice := range c.Choices {
		if choice.Index != 0 {
			continue
		}
		text += choice.Delta.Content + choice.Delta.Refusal
		for _, d := range choice.Delta.ToolCalls {
			a.addToolCall(d)
		}
		a.finished = a.finished || choice.FinishReason != ""
	}
	a.text.WriteString(text)
	return text
}

// addToolCall appends a fragment to the call at its index. A new id at a
// known index starts a new call: some servers send every call at index 0.
func (a *streamAccumulator) addToolCall(d openai.ChatCompletionChunkChoiceDeltaToolCall) {
	b := a.byIndex[d.Index]
	if b == nil || (d.ID != "" && b.id != "" && d.ID != b.id) {
		b = &toolCallBuilder{}
		a.calls = append(a.calls, b)
		if a.byIndex == nil {
			a.byIndex = map[int64]*toolCallBuilder{}
		}
		a.byIndex[d.Index] = b
	}
	b.id = cmp.Or(b.id, d.ID)
	b.name = cmp.Or(b.name, d.Function.Name)
	b.args.WriteString(d.Function.Arguments)
}

func (a *streamAccumulator) response(configuredModel string) ChatResponse {
	resp := ChatResponse{
		Text:             a.text.String(),
		Model:            cmp.Or(a.model, configuredModel),
		PromptTokens:     int(a.usage.PromptTokens),
		CompletionTokens: int(a.usage.CompletionTokens),
	}
	for i, b := range a.calls {
		resp.ToolCalls = append(resp.ToolCalls, catalog.ToolCall{
			ID:        cmp.Or(b.id, fmt.Sprintf("call_%d", i)), // tool results need an id to answer
			Name:      b.name,
			Arguments: b.args.String(),
		})
	}
	return resp
}
