package weaviate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	wv "github.com/weaviate/weaviate-go-client/v4/weaviate"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/auth"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/grpc"

	"shopbot/catalog/search"
	"shopbot/catalog/search/analysis"
	"shopbot/catalog/search/vectorizer"
)

var _ search.Searcher = (*Backend)(nil)

// DefaultCollection is the collection products are stored in.
const DefaultCollection = "ShopbotProduct"

// Expander turns query text into words and their alternatives, matched
// against the catalog's vocabulary (typo corrections need it); bot wires
// the embedded index, which also answers while Weaviate is down
// (embedded.Index.Expand). This package does not import it.
type Expander interface {
	Expand(text string) [][]analysis.Alternative
}

// Config configures a Backend.
type Config struct {
	// URL is the Weaviate endpoint, e.g. http://127.0.0.1:8080.
	URL    string
	APIKey string
	// GRPCAddr (host:port, plaintext) sends batch imports over Weaviate's
	// gRPC API, much faster than REST for rebuilds; empty uses REST.
	// weaviate-go-client v4 skips certificate checks on TLS gRPC, so it
	// is refused with an https URL.
	GRPCAddr string
	// Collection defaults to DefaultCollection.
	Collection string
	// Embedder computes product and query vectors (required).
	Embedder vectorizer.Embedder
	// Expander analyzes query text (required): stems, synonyms, typos.
	Expander Expander
	// Alpha is the weight of vector similarity in hybrid queries: 0 is
	// keywords only, 1 vectors only; clamped to [0, 1].
	Alpha float64
	// MinSimilarity is what a result without a keyword match needs;
	// 0 means search.DefaultMinSimilarity.
	MinSimilarity float64
	// Timeout bounds each request; default 60 s (a batch of a rebuild
	// may take that long on a busy server; searches are bound by their
	// context, which search.Fallback cuts at 2 s).
	Timeout time.Duration
	Logger  *slog.Logger
	// Transport carries the REST calls (bot wraps it to trace each
	// call); nil: Go's default. Batch imports over gRPC do not use it.
	Transport http.RoundTripper
}

// Backend searches and maintains a Weaviate collection. It is safe for
// concurrent use.
type Backend struct {
	client *wv.Client
	class  string
	emb    vectorizer.Embedder
	exp    Expander
	alpha  float32
	floor  float32
	log    *slog.Logger

	mu      sync.Mutex // guards ensured
	ensured bool
}

// New returns a backend for the collection at cfg.URL. It does not
// connect: the collection is created on first use.
func New(cfg Config) (*Backend, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("weaviate: WEAVIATE_URL %q: want http://host:port or https://host", cfg.URL)
	}
	if cfg.Embedder == nil || cfg.Expander == nil {
		return nil, errors.New("weaviate: an embedder and an expander are required")
	}
	class := cmp.Or(cfg.Collection, DefaultCollection)
	if !validClass(class) {
		return nil, fmt.Errorf("weaviate: collection name %q: want a capital letter, then letters, digits or _", class)
	}
	wc := wv.Config{Host: u.Host + u.Path, Scheme: u.Scheme, Timeout: cmp.Or(cfg.Timeout, 60*time.Second)}
	if cfg.GRPCAddr != "" {
		if _, _, err := net.SplitHostPort(cfg.GRPCAddr); err != nil || u.Scheme == "https" {
			return nil, fmt.Errorf("weaviate: WEAVIATE_GRPC_ADDR %q: want host:port of a plaintext gRPC endpoint, with an http WEAVIATE_URL", cfg.GRPCAddr)
		}
		wc.GrpcConfig = &grpc.Config{Host: cfg.GRPCAddr}
	}
	switch {
	case cfg.Transport != nil:
		// The client takes either its own HTTP client or an AuthConfig:
		// with ours, the key goes as the header ApiKey would set.
		wc.ConnectionClient = &http.Client{Transport: cfg.Transport, Timeout: wc.Timeout}
		if cfg.APIKey != "" {
			wc.Headers = map[string]string{"authorization": "Bearer " + cfg.APIKey}
		}
	case cfg.APIKey != "":
		wc.AuthConfig = auth.ApiKey{Value: cfg.APIKey}
	}
	client, err := wv.NewClient(wc)
	if err != nil {
		return nil, fmt.Errorf("weaviate: %w", err)
	}
	b := &Backend{client: client, class: class, emb: cfg.Embedder, exp: cfg.Expander,
		alpha: float32(min(max(cfg.Alpha, 0), 1)),
		floor: float32(cmp.Or(cfg.MinSimilarity, search.DefaultMinSimilarity)),
		log:   cmp.Or(cfg.Logger, slog.New(slog.DiscardHandler))}
	return b, nil
}

// Name describes the backend for logs and metrics labels.
func (b *Backend) Name() string { return "weaviate" }

// Collection is the collection's name.
func (b *Backend) Collection() string { return b.class }

func validClass(s string) bool {
	for i, r := range s {
		switch {
		case i == 0 && (r < 'A' || r > 'Z'):
			return false
		case r == '_', 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		default:
			return false
		}
	}
	return s != ""
}

// Ready reports whether Weaviate answers and is ready.
func (b *Backend) Ready(ctx context.Context) error {
	ok, err := b.client.Misc().ReadyChecker().Do(ctx)
	if err != nil {
		return fmt.Errorf("weaviate: ready: %w", err)
	}
	if !ok {
		return errors.New("weaviate: not ready")
	}
	return nil
}

// Count returns how many products the collection holds (0 when it does
// not exist yet).
func (b *Backend) Count(ctx context.Context) (int, error) {
	if err := b.ensure(ctx); err != nil {
		return 0, err
	}
	return b.count(ctx, nil)
}
