package weaviate_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"shopbot/catalog/search"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/vectorizer"
	"shopbot/catalog/search/weaviate"
)

// TestBadConfig: each kind of bad configuration is a clear error.
func TestBadConfig(t *testing.T) {
	idx, emb := embedded.New(embedded.Options{}), vectorizer.NewLocal(0)
	for _, tc := range []struct {
		name string
		cfg  weaviate.Config
		want string
	}{
		{"no URL", weaviate.Config{Embedder: emb, Expander: idx}, "WEAVIATE_URL"},
		{"no scheme", weaviate.Config{URL: "localhost:8080", Embedder: emb, Expander: idx}, "WEAVIATE_URL"},
		{"ftp", weaviate.Config{URL: "ftp://x", Embedder: emb, Expander: idx}, "WEAVIATE_URL"},
		{"no embedder", weaviate.Config{URL: "http://127.0.0.1:1", Expander: idx}, "embedder"},
		{"no expander", weaviate.Config{URL: "http://127.0.0.1:1", Embedder: emb}, "expander"},
		{"lower-case collection", weaviate.Config{URL: "http://127.0.0.1:1", Embedder: emb, Expander: idx, Collection: "products"}, "collection name"},
		{"odd collection", weaviate.Config{URL: "http://127.0.0.1:1", Embedder: emb, Expander: idx, Collection: "P-1"}, "collection name"},
	} {
		_, err := weaviate.New(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error about %s", tc.name, err, tc.want)
		}
	}
}

// TestUnreachable: with nothing listening every call fails with an error
// (for the fallback to catch), fast, and without a panic.
func TestUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	b, err := weaviate.New(weaviate.Config{URL: "http://" + addr, Embedder: vectorizer.NewLocal(0),
		Expander: embedded.New(embedded.Options{}), Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	start := time.Now()
	if _, err := b.Search(ctx, search.Query{Text: "shoes"}); err == nil {
		t.Error("search: no error")
	}
	if _, err := b.Similar(ctx, "SHO-RUN-001", 3); err == nil {
		t.Error("similar: no error")
	}
	if err := b.Ready(ctx); err == nil {
		t.Error("ready: no error")
	}
	if err := b.Delete(ctx, "X"); err == nil {
		t.Error("delete: no error")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("failing took %s", d)
	}
}
