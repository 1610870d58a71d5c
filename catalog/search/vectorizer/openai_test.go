package vectorizer_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"

	"shopbot/catalog/search/vectorizer"
	"shopbot/catalog/search/vectorizer/vectorizertest"
)

// lengthVector gives each text a vector from its length and first letter,
// deliberately not unit-length: the client must normalize.
func lengthVector(text string) []float32 {
	return []float32{float32(len(text)), float32(text[0]), 3}
}

func TestOpenAIBatchesAndCaches(t *testing.T) {
	ctx := context.Background()
	srv := vectorizertest.NewServer(t, lengthVector)
	if d := vectorizer.NewOpenAI(vectorizer.OpenAIConfig{}); d.Name() != "openai:text-embedding-3-small" || d.Dim() != 1536 {
		t.Errorf("default model: name %q, dim %d", d.Name(), d.Dim())
	}
	e := vectorizer.NewOpenAI(vectorizer.OpenAIConfig{BaseURL: srv.URL, APIKey: "sk-test", Model: "test-embedder"})
	texts := make([]string, 600)
	for i := range texts {
		texts[i] = fmt.Sprintf("product %d", i)
	}
	texts[599] = texts[0] // a repeat is requested once
	vs, err := e.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests for 599 distinct texts, want 3 batches", len(reqs))
	}
	total := 0
	for _, r := range reqs {
		if len(r.Input) > 256 || r.Model != "test-embedder" || r.EncodingFormat != "float" || r.Authorization != "Bearer sk-test" {
			t.Errorf("request: %d inputs, model %q, format %q, auth %q", len(r.Input), r.Model, r.EncodingFormat, r.Authorization)
		}
		total += len(r.Input)
	}
	if total != 599 {
		t.Errorf("%d texts requested, want 599", total)
	}
	for i, v := range vs {
		want := lengthVector(texts[i])
		if n := norm(v); math.Abs(n-1) > 1e-6 || math.Abs(vectorizer.Cosine(v, want)-1) > 1e-6 {
			t.Fatalf("text %d: %v (norm %v), want %v normalized", i, v, n, want)
		}
	}

	// Everything is cached now: a second call makes no request.
	again, err := e.Embed(ctx, []string{texts[5], texts[300]})
	if err != nil || len(srv.Requests()) != 3 {
		t.Fatalf("cached texts: %d requests, %v", len(srv.Requests()), err)
	}
	if vectorizer.Cosine(again[0], vs[5]) < 0.999999 || vectorizer.Cosine(again[1], vs[300]) < 0.999999 {
		t.Error("cached vectors differ")
	}
	// Texts without words need no request and embed to zeros.
	blank, err := e.Embed(ctx, []string{"", "  ", "!!!", texts[1]})
	if err != nil || len(srv.Requests()) != 3 {
		t.Fatalf("blank texts: %d requests, %v", len(srv.Requests()), err)
	}
	if len(blank[0]) != 3 || norm(blank[0]) != 0 || norm(blank[3]) == 0 {
		t.Errorf("blank texts: %v", blank)
	}
}

func TestOpenAIDimensionsAndCacheBound(t *testing.T) {
	ctx := context.Background()
	srv := vectorizertest.NewServer(t, func(text string) []float32 { return []float32{1, 2, 3, 4, float32(len(text))} })
	e := vectorizer.NewOpenAI(vectorizer.OpenAIConfig{BaseURL: srv.URL, Model: "some-local-model", Dimensions: 4,
		BatchSize: 2, CacheBytes: 2 * (4*4 + 128)})
	if e.Dim() != 4 || e.Name() != "openai:some-local-model:4" {
		t.Errorf("dim %d, name %q", e.Dim(), e.Name())
	}
	vs, err := e.Embed(ctx, []string{"a1", "b22", "c333"})
	if err != nil || len(vs[0]) != 4 {
		t.Fatalf("%v, %v", vs, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Dimensions != 4 || reqs[0].Authorization != "" {
		t.Errorf("requests: %+v", reqs)
	}
	// The cache holds two vectors: "a1" was evicted, "c333" was not.
	if _, err := e.Embed(ctx, []string{"c333"}); err != nil || len(srv.Requests()) != 2 {
		t.Errorf("recent text: %d requests, %v", len(srv.Requests()), err)
	}
	if _, err := e.Embed(ctx, []string{"a1"}); err != nil || len(srv.Requests()) != 3 {
		t.Errorf("evicted text: %d requests, %v", len(srv.Requests()), err)
	}
}

func TestOpenAILearnsDimension(t *testing.T) {
	srv := vectorizertest.NewServer(t, nil)
	e := vectorizer.NewOpenAI(vectorizer.OpenAIConfig{BaseURL: srv.URL, Model: "nomic-embed-text"})
	if e.Dim() != 0 {
		t.Errorf("unknown model: dim %d before any request", e.Dim())
	}
	if _, err := e.Embed(context.Background(), []string{"hello"}); err != nil {
		t.Fatal(err)
	}
	if e.Dim() != vectorizertest.DefaultDim {
		t.Errorf("dim %d after an answer of %d", e.Dim(), vectorizertest.DefaultDim)
	}
}

func TestOpenAIErrors(t *testing.T) {
	ctx := context.Background()
	srv := vectorizertest.NewServer(t, nil)
	const key = "sk-secret-key"
	e := vectorizer.NewOpenAI(vectorizer.OpenAIConfig{BaseURL: srv.URL, APIKey: key, Model: "m"})

	// A 500 is retried twice, then surfaces as an error; nothing is cached.
	srv.Fail(500, 500, 500)
	_, err := e.Embed(ctx, []string{"hello " + key})
	if !errors.Is(err, vectorizer.ErrUnavailable) || !strings.Contains(err.Error(), "500") {
		t.Fatalf("after three 500s: %v", err)
	}
	if strings.Contains(err.Error(), key) {
		t.Errorf("error text holds the API key: %v", err)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests, want 1 + 2 retries", n)
	}
	// One failure is retried away.
	srv.Fail(http.StatusServiceUnavailable)
	if _, err := e.Embed(ctx, []string{"hello"}); err != nil {
		t.Errorf("after one 503: %v", err)
	}
	// A 400 is not retried.
	srv.Fail(http.StatusBadRequest)
	before := len(srv.Requests())
	if _, err := e.Embed(ctx, []string{"other"}); !errors.Is(err, vectorizer.ErrUnavailable) || len(srv.Requests()) != before+1 {
		t.Errorf("400: %v after %d requests", err, len(srv.Requests())-before)
	}

	bad := vectorizer.NewOpenAI(vectorizer.OpenAIConfig{BaseURL: "not a url"})
	if _, err := bad.Embed(ctx, []string{"x"}); !errors.Is(err, vectorizer.ErrUnavailable) {
		t.Errorf("bad base URL: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := e.Embed(cctx, []string{"never sent"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestOpenAIRejectsBadAnswers(t *testing.T) {
	ctx := context.Background()
	srv := vectorizertest.NewServer(t, func(text string) []float32 {
		if text == "short" {
			return []float32{1, 2}
		}
		return []float32{1, 2, 3}
	})
	e := vectorizer.NewOpenAI(vectorizer.OpenAIConfig{BaseURL: srv.URL, Model: "m"})
	if _, err := e.Embed(ctx, []string{"fine"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Embed(ctx, []string{"short"}); !errors.Is(err, vectorizer.ErrUnavailable) || !strings.Contains(err.Error(), "want 3") {
		t.Errorf("vector of another length: %v", err)
	}
}
