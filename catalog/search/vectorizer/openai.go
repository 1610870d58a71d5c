package vectorizer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"

	"shopbot/catalog/clip"
)

// ErrUnavailable wraps every failure to get vectors from a remote
// embedder: the index then searches by keywords alone.
var ErrUnavailable = errors.New("embeddings unavailable")

// OpenAIConfig configures the OpenAI embedder. Nothing is read from the
// environment.
type OpenAIConfig struct {
	// APIKey is sent as a bearer token; empty sends none (local servers).
	APIKey string
	// BaseURL of the API, ending in /v1; empty means OpenAI.
	BaseURL string
	// Model defaults to text-embedding-3-small.
	Model string
	// Dimensions asks the model for shorter vectors (text-embedding-3
	// models support it); 0 means the model's own length.
	Dimensions int
	// BatchSize is the most texts one request carries: default and
	// maximum 256.
	BatchSize int
	// CacheBytes bounds the vector cache; 0 means 64 MiB (about 10,000
	// vectors of 1,536 numbers), negative disables it.
	CacheBytes int
	// RequestTimeout bounds each attempt; default 30s.
	RequestTimeout time.Duration
	// MaxRetries after a failed attempt, with the SDK's backoff; 0 means
	// 2, negative means none.
	MaxRetries int
	HTTPClient *http.Client // optional
}

// DefaultOpenAIModel is the model used when OpenAIConfig.Model is empty.
const DefaultOpenAIModel = openai.EmbeddingModelTextEmbedding3Small

// Limits of one request, and of the parallel requests of one Embed.
const (
	maxBatch          = 256
	parallelRequests  = 4
	maxInputBytes     = 8000 // well under the 8,191-token input limit
	defaultCacheBytes = 64 << 20
	defaultTimeout    = 30 * time.Second
	defaultRetries    = 2
)

// knownDims are the vector lengths of OpenAI's embedding models, so Dim
// is known before the first request.
var knownDims = map[string]int{
	openai.EmbeddingModelTextEmbedding3Small: 1536,
	openai.EmbeddingModelTextEmbedding3Large: 3072,
	openai.EmbeddingModelTextEmbeddingAda002: 1536,
}

// OpenAI embeds texts through the embeddings endpoint of an
// OpenAI-compatible server, in batches, caching vectors by a hash of
// model and text.
type OpenAI struct {
	svc       openai.EmbeddingService
	model     string
	dims      int // asked for; 0: the model's own
	name      string
	batch     int
	apiKey    string // kept only to scrub it from error text
	cache     *cache // nil: disabled
	dim       atomic.Int64
	configErr error
}

// NewOpenAI returns an OpenAI embedder for cfg.
func NewOpenAI(cfg OpenAIConfig) *OpenAI {
	o := &OpenAI{
		model:  cmp.Or(cfg.Model, DefaultOpenAIModel),
		dims:   max(cfg.Dimensions, 0),
		batch:  min(cmp.Or(max(cfg.BatchSize, 0), maxBatch), maxBatch),
		apiKey: cfg.APIKey,
	}
	o.name = "openai:" + o.model
	if o.dims > 0 {
		o.name += ":" + strconv.Itoa(o.dims)
		o.dim.Store(int64(o.dims))
	} else {
		o.dim.Store(int64(knownDims[o.model]))
	}
	switch size := cmp.Or(cfg.CacheBytes, defaultCacheBytes); {
	case size > 0:
		o.cache = newCache(size)
	}
	retries := cfg.MaxRetries
	switch {
	case retries == 0:
		retries = defaultRetries
	case retries < 0:
		retries = 0
	}
	// NewEmbeddingService, unlike openai.NewClient, reads no OPENAI_*
	// variables: the config is the only source of settings.
	opts := []option.RequestOption{
		option.WithEnvironmentProduction(),
		option.WithAPIKey(cfg.APIKey),
		option.WithMaxRetries(retries),
		option.WithRequestTimeout(cmp.Or(max(cfg.RequestTimeout, 0), defaultTimeout)),
	}
	if cfg.BaseURL != "" {
		o.configErr = checkBaseURL(cfg.BaseURL)
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	o.svc = openai.NewEmbeddingService(opts...)
	return o
}

// Name is "openai:" and the model, and the dimensions when asked for.
func (o *OpenAI) Name() string { return o.name }

// Dim is the vector length: the one asked for, the model's known one, or
// the one the server answered with; 0 before that.
func (o *OpenAI) Dim() int { return int(o.dim.Load()) }

// Embed returns the unit-length vectors of texts. Cached texts, and texts
// repeated within the call, are requested once; texts without letters or
// digits get the zero vector without a request (of length 0 while Dim is
// not known). Long texts are cut to
// 8,000 bytes. Failures wrap ErrUnavailable.
func (o *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if o.configErr != nil {
		return nil, fmt.Errorf("vectorizer: openai: %w: %v", ErrUnavailable, o.configErr)
	}
	out := make([][]float32, len(texts))
	var req pending
	for i, t := range texts {
		t = clip.Bytes(t, maxInputBytes) // what one input may hold
		if strings.IndexFunc(t, isWordRune) < 0 {
			continue // filled with zeros below, once the length is known
		}
		k := keyOf(o.name, t)
		if v, ok := o.cached(k); ok {
			out[i] = v
			continue
		}
		req.add(i, t, k)
	}
	if err := o.fetch(ctx, &req); err != nil {
		return nil, err
	}
	for i, v := range req.vectors(len(texts)) {
		if v != nil {
			out[i] = v
		}
	}
	for i, v := range out {
		if v == nil {
			out[i] = make([]float32, o.Dim())
		}
	}
	return out, nil
}

func (o *OpenAI) cached(k cacheKey) ([]float32, bool) {
	if o.cache == nil {
		return nil, false
	}
	return o.cache.get(k)
}

// pending collects the distinct texts an Embed call must request.
type pending struct {
	texts []string
	keys  []cacheKey
	at    [][]int // the positions in the call's texts of each distinct text
	index map[cacheKey]int
	vecs  [][]float32 // by distinct text, filled by fetch
}

func (p *pending) add(pos int, text string, k cacheKey) {
	if p.index == nil {
		p.index = map[cacheKey]int{}
	}
	if j, ok := p.index[k]; ok {
		p.at[j] = append(p.at[j], pos)
		return
	}
	p.index[k] = len(p.texts)
	p.texts = append(p.texts, text)
	p.keys = append(p.keys, k)
	p.at = append(p.at, []int{pos})
}

// vectors spreads the fetched vectors over the call's n positions.
func (p *pending) vectors(n int) [][]float32 {
	out := make([][]float32, n)
	for j, v := range p.vecs {
		for _, pos := range p.at[j] {
			out[pos] = v
		}
	}
	return out
}

// fetch requests the pending texts in batches, a few at a time, and caches
// the answers. The first failure cancels the other requests.
func (o *OpenAI) fetch(ctx context.Context, p *pending) error {
	if len(p.texts) == 0 {
		return nil
	}
	p.vecs = make([][]float32, len(p.texts))
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	sem := make(chan struct{}, parallelRequests)
	var wg sync.WaitGroup
	for lo := 0; lo < len(p.texts); lo += o.batch {
		hi := min(lo+o.batch, len(p.texts))
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			if err := o.request(ctx, p.texts[lo:hi], p.vecs[lo:hi]); err != nil {
				cancel(err)
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		if errors.Is(err, ErrUnavailable) {
			return err
		}
		return fmt.Errorf("vectorizer: openai: %w", err)
	}
	for j, v := range p.vecs {
		if o.cache != nil {
			o.cache.put(p.keys[j], v)
		}
	}
	return nil
}

// request embeds one batch into out (parallel to texts).
func (o *OpenAI) request(ctx context.Context, texts []string, out [][]float32) error {
	params := openai.EmbeddingNewParams{
		Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: texts},
		Model:          o.model,
		EncodingFormat: openai.EmbeddingNewParamsEncodingFormatFloat,
	}
	if o.dims > 0 {
		params.Dimensions = param.NewOpt(int64(o.dims))
	}
	resp, err := o.svc.New(ctx, params)
	if err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return fmt.Errorf("vectorizer: openai: %w: %s", ErrUnavailable, o.describe(err))
	}
	if err := o.decode(resp.Data, out); err != nil {
		return fmt.Errorf("vectorizer: openai: %w: %v", ErrUnavailable, err)
	}
	return nil
}

// decode checks an answer (one embedding per input, every index once, one
// length throughout) and stores the normalized vectors by index.
func (o *OpenAI) decode(data []openai.Embedding, out [][]float32) error {
	if len(data) != len(out) {
		return fmt.Errorf("%d embeddings for %d inputs", len(data), len(out))
	}
	for _, e := range data {
		i := e.Index
		if i < 0 || i >= int64(len(out)) || out[i] != nil {
			return fmt.Errorf("embedding index %d out of range or repeated", i)
		}
		if err := o.checkDim(len(e.Embedding)); err != nil {
			return err
		}
		v := make([]float32, len(e.Embedding))
		for j, x := range e.Embedding {
			v[j] = float32(x)
		}
		Normalize(v)
		out[i] = v
	}
	return nil
}

// checkDim learns the vector length from the first answer and rejects
// answers of another length.
func (o *OpenAI) checkDim(n int) error {
	if n == 0 {
		return errors.New("empty embedding")
	}
	if o.dim.CompareAndSwap(0, int64(n)) {
		return nil
	}
	if want := o.Dim(); n != want {
		return fmt.Errorf("embedding of %d numbers, want %d", n, want)
	}
	return nil
}

// describe turns a request failure into text safe to log: the status and
// the server's error code and message, without the API key, or the
// transport error.
func (o *OpenAI) describe(err error) string {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		s := "status " + strconv.Itoa(apiErr.StatusCode)
		if c := cmp.Or(apiErr.Code, apiErr.Type); c != "" {
			s += " " + c
		}
		if apiErr.Message != "" {
			s += ": " + apiErr.Message
		}
		return o.scrub(s)
	}
	return o.scrub(err.Error())
}

// scrub keeps error text short and free of the API key.
func (o *OpenAI) scrub(s string) string {
	if o.apiKey != "" {
		s = strings.ReplaceAll(s, o.apiKey, "[redacted]")
	}
	return clip.Bytes(s, 300)
}

// checkBaseURL rejects what would fail on every request. The URL is not
// echoed: it may carry credentials.
func checkBaseURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("base URL is not an absolute http(s) URL")
	}
	return nil
}
