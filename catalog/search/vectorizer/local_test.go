package vectorizer_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"shopbot/catalog/search/vectorizer"
)

// catalogTexts is a small catalog, as the index writes product texts.
var catalogTexts = []string{
	"AeroStride Cushioned Running Shoes. AeroStride Cushioned Running Shoes. AeroStride. Shoes > Running. mesh, black",
	"Trailcrest Rugged Hiking Boots. Trailcrest Rugged Hiking Boots. Trailcrest. Shoes > Hiking. leather, brown",
	"Кроссовки беговые Kestrel. Кроссовки беговые Kestrel. Kestrel. Shoes > Running. сетка",
	"Auralis Wireless Over-Ear Headphones. Auralis Wireless Over-Ear Headphones. Auralis. Electronics > Headphones. black",
	"Ironhearth Cast Iron Skillet, 12 in. Ironhearth Cast Iron Skillet, 12 in. Ironhearth. Kitchen > Cookware. cast iron",
	"Brightforge Compact Air Fryer. Brightforge Compact Air Fryer. Brightforge. Kitchen > Small Appliances. black",
	"Ridgeback Roasters Dark Roast Coffee Beans. Ridgeback Roasters Dark Roast Coffee Beans. Grocery > Coffee & Tea. 1 kg",
	"Nordvik Waterproof Rain Jacket. Nordvik Waterproof Rain Jacket. Nordvik. Apparel > Jackets > Rain. nylon, navy",
}

func fitted(t *testing.T) (*vectorizer.Local, [][]float32) {
	t.Helper()
	l := vectorizer.NewLocal(0)
	l.Fit(catalogTexts)
	vs, err := l.Embed(context.Background(), catalogTexts)
	if err != nil {
		t.Fatal(err)
	}
	return l, vs
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func norm(v []float32) float64 { return math.Sqrt(dot(v, v)) }

// closest returns the index of the catalog text most similar to query.
func closest(t *testing.T, l *vectorizer.Local, docs [][]float32, query string) (int, float64) {
	t.Helper()
	qv, err := l.Embed(context.Background(), []string{query})
	if err != nil {
		t.Fatal(err)
	}
	best, sim := -1, -1.0
	for i, d := range docs {
		if s := dot(qv[0], d); s > sim {
			best, sim = i, s
		}
	}
	return best, sim
}

func TestLocalFindsVariants(t *testing.T) {
	l, docs := fitted(t)
	for _, tc := range []struct {
		query string
		want  int
	}{
		{"running shoes", 0},
		{"runing shoes", 0},
		{"runnig", 0},
		{"кроссовок", 2},
		{"кросовки", 2},
		{"КРОССОВКИ", 2},
		{"hedphones", 3},
		{"wireles headphone", 3},
		{"skilet", 4},
		{"airfryer", 5},
		{"cofee beans", 6},
		{"waterprof jacket", 7},
	} {
		got, sim := closest(t, l, docs, tc.query)
		if got != tc.want {
			t.Errorf("%q: closest is %q (%.2f), want %q", tc.query, catalogTexts[got], sim, catalogTexts[tc.want])
		}
		if sim < 0.1 {
			t.Errorf("%q: similarity %.2f to %q, want at least 0.1", tc.query, sim, catalogTexts[got])
		}
	}
}

func TestLocalNonsenseIsFarFromEverything(t *testing.T) {
	l, docs := fitted(t)
	for _, q := range []string{"zzzzqqqq", "qwxv jjkq", "lorem ipsum dolor sit amet"} {
		if _, sim := closest(t, l, docs, q); sim > 0.05 {
			t.Errorf("%q: similarity %.2f to some product", q, sim)
		}
	}
}

func TestLocalVectors(t *testing.T) {
	ctx := context.Background()
	l, docs := fitted(t)
	if l.Dim() != vectorizer.DefaultLocalDim || l.Name() != "local-256" {
		t.Errorf("dim %d, name %q", l.Dim(), l.Name())
	}
	for i, d := range docs {
		if len(d) != l.Dim() || math.Abs(norm(d)-1) > 1e-5 {
			t.Errorf("text %d: length %d, norm %v", i, len(d), norm(d))
		}
	}
	vs, err := l.Embed(ctx, []string{"", "!!! --- ...", "a", "running zzzzqqqq", "ёлка", "елка"})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs[:3] {
		if n := norm(v); n != 0 {
			t.Errorf("text %d without words: norm %v, want the zero vector", i, n)
		}
	}
	if n := norm(vs[3]); n <= 0.1 || n >= 0.9 {
		t.Errorf("half of the query unknown to the catalog: norm %v, want it shortened", n)
	}
	if !slices.Equal(vs[4], vs[5]) {
		t.Error("ё and е embed differently")
	}
}

func TestLocalDeterministic(t *testing.T) {
	ctx := context.Background()
	a, b := vectorizer.NewLocal(128), vectorizer.NewLocal(128)
	a.Fit(catalogTexts)
	b.Fit(slices.Clone(catalogTexts))
	va, _ := a.Embed(ctx, catalogTexts)
	vb, _ := b.Embed(ctx, catalogTexts)
	for i := range va {
		if !slices.Equal(va[i], vb[i]) {
			t.Fatalf("text %d: two fits disagree", i)
		}
	}
	// A large batch is embedded in parallel; it must equal one at a time.
	var many []string
	for i := range 1500 {
		many = append(many, fmt.Sprintf("%s %d", catalogTexts[i%len(catalogTexts)], i))
	}
	batch, _ := a.Embed(ctx, many)
	for _, i := range []int{0, 1, 777, 1499} {
		one, _ := a.Embed(ctx, many[i:i+1])
		if !slices.Equal(batch[i], one[0]) {
			t.Errorf("text %d: batch and single embeddings differ", i)
		}
	}
}

func TestLocalUnfittedIsPlainTF(t *testing.T) {
	ctx := context.Background()
	l := vectorizer.NewLocal(0)
	vs, err := l.Embed(ctx, []string{"running shoes", "runing shoes", "cast iron skillet", "zzzzqqqq"})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		if math.Abs(norm(v)-1) > 1e-5 {
			t.Errorf("unfitted text %d: norm %v, want 1 (nothing is unknown before Fit)", i, norm(v))
		}
	}
	if near, far := dot(vs[0], vs[1]), dot(vs[0], vs[2]); near < 0.5 || far > 0.2 {
		t.Errorf("unfitted: typo similarity %.2f, unrelated %.2f", near, far)
	}
}

func TestLocalConcurrentFitAndEmbed(t *testing.T) {
	l := vectorizer.NewLocal(64)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 20 {
				if _, err := l.Embed(context.Background(), catalogTexts); err != nil {
					t.Error(err)
				}
			}
		})
	}
	for range 5 {
		l.Fit(catalogTexts)
	}
	wg.Wait()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Embed(ctx, catalogTexts); err == nil {
		t.Error("cancelled context: no error")
	}
}

// FuzzLocal: any text embeds without panicking, to a vector no longer
// than 1, the same every time.
func FuzzLocal(f *testing.F) {
	for _, seed := range []string{"", "runing shoes", "\xff\xfe", "ё-Ё", "👍🏽 кроссовки", "日本語", "a\u0301", strings.Repeat("x", 100)} {
		f.Add(seed)
	}
	l := vectorizer.NewLocal(64)
	l.Fit(catalogTexts)
	f.Fuzz(func(t *testing.T, text string) {
		vs, err := l.Embed(context.Background(), []string{text, text})
		if err != nil {
			t.Fatal(err)
		}
		if n := norm(vs[0]); n > 1+1e-5 || math.IsNaN(n) {
			t.Fatalf("%q: norm %v", text, n)
		}
		if !slices.Equal(vs[0], vs[1]) {
			t.Fatalf("%q: two embeddings differ", text)
		}
	})
}
