package demo

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"shopbot/catalog/importer"
)

func synGen(t testing.TB, n int, seed int64) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteSynthetic(&buf, n, seed); err != nil {
		t.Fatalf("WriteSynthetic(%d, %d): %v", n, seed, err)
	}
	return buf.Bytes()
}

func TestWriteSyntheticDeterminism(t *testing.T) {
	base := synGen(t, 500, 42)
	tests := []struct {
		name string
		seed int64
		same bool
	}{
		{"same seed", 42, true},
		{"different seed", 43, false},
		{"negative seed", -42, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := synGen(t, 500, tc.seed); bytes.Equal(got, base) != tc.same {
				t.Errorf("seed %d vs 42: equal=%v, want %v", tc.seed, !tc.same, tc.same)
			}
		})
	}
	// A prefix of a longer run is the shorter run.
	if long := synGen(t, 600, 42); !bytes.HasPrefix(long, base) {
		t.Error("n=500 output is not a prefix of n=600 output")
	}
}

func TestWriteSyntheticSizes(t *testing.T) {
	tests := []struct {
		n       int
		wantErr bool
	}{{-1, true}, {0, false}, {1, false}, {7, false}}
	for _, tc := range tests {
		var buf bytes.Buffer
		err := WriteSynthetic(&buf, tc.n, 1)
		if (err != nil) != tc.wantErr {
			t.Errorf("n=%d: err = %v, wantErr %v", tc.n, err, tc.wantErr)
			continue
		}
		if want := max(tc.n, 0); bytes.Count(buf.Bytes(), []byte("\n")) != want {
			t.Errorf("n=%d: got %d lines, want %d", tc.n, bytes.Count(buf.Bytes(), []byte("\n")), want)
		}
	}
}

func TestWriteSyntheticRows(t *testing.T) {
	const n = 1000
	price := regexp.MustCompile(`^\d+\.\d{2}$`)
	out := synGen(t, n, 7)
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	skus, tops := map[string]bool{}, map[string]bool{}
	lines, zeros, noImage := 0, 0, 0
	for sc.Scan() {
		lines++
		var p importer.Record
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("line %d: %v\n%s", lines, err, sc.Text())
		}
		if dec.More() {
			t.Fatalf("line %d: more than one value", lines)
		}
		in, err := p.Input("USD") // what `shopbot import` accepts
		if err != nil {
			t.Fatalf("line %d: import would reject it: %v", lines, err)
		}
		// Every field must be present, not just decodable.
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil || len(raw) != 10 {
			t.Fatalf("line %d: want exactly 10 fields, got %d (%v)", lines, len(raw), err)
		}
		var attrs map[string]any
		if err := json.Unmarshal(raw["attributes"], &attrs); err != nil {
			t.Fatalf("line %d: attributes: %v", lines, err)
		}
		for k, v := range attrs {
			if s, ok := v.(string); !ok || s == "" {
				t.Errorf("line %d: attribute %q = %#v, want non-empty string", lines, k, v)
			}
		}
		if len(in.Attributes) < 2 || len(in.Attributes) > 5 {
			t.Errorf("line %d: %d attributes, want 2–5", lines, len(in.Attributes))
		}
		if p.SKU == "" || len(p.SKU) > 64 || strings.ContainsAny(p.SKU, " \t") || skus[p.SKU] {
			t.Errorf("line %d: bad or duplicate sku %q", lines, p.SKU)
		}
		skus[p.SKU] = true
		if strings.TrimSpace(p.Title) == "" || p.Description == "" || p.Brand == "" {
			t.Errorf("line %d: empty title/description/brand: %+v", lines, p)
		}
		if parts := strings.Split(p.Category, " > "); len(parts) < 2 || len(parts) > 3 {
			t.Errorf("line %d: category %q has %d parts", lines, p.Category, len(parts))
		} else {
			tops[parts[0]] = true
		}
		if !price.MatchString(string(p.Price)) {
			t.Errorf("line %d: price %q", lines, p.Price)
		} else if f, _ := strconv.ParseFloat(string(p.Price), 64); f < 1 || f > 3000 {
			t.Errorf("line %d: price %s out of range", lines, p.Price)
		}
		if p.Currency != "USD" {
			t.Errorf("line %d: currency %q", lines, p.Currency)
		}
		switch {
		case in.Stock > 500:
			t.Errorf("line %d: stock %d", lines, in.Stock)
		case in.Stock == 0:
			zeros++
		}
		switch {
		case p.ImageURL == "":
			noImage++
		case !strings.HasPrefix(p.ImageURL, "https://") || !strings.Contains(p.ImageURL, p.SKU):
			t.Errorf("line %d: image_url %q", lines, p.ImageURL)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if lines != n {
		t.Errorf("got %d lines, want %d", lines, n)
	}
	if len(tops) < 10 {
		t.Errorf("only %d top-level categories: %v", len(tops), tops)
	}
	if zeros == 0 || zeros > n/10 {
		t.Errorf("%d rows with zero stock, want about 5%%", zeros)
	}
	if noImage < n/10 || noImage > n*3/10 {
		t.Errorf("%d rows without image, want about 20%%", noImage)
	}
}

// Every attribute key a subcategory names must have values to draw from.
func TestSyntheticTables(t *testing.T) {
	for _, top := range synParsed {
		for _, sub := range top.subs {
			if len(sub.attrs) < 2 || sub.lo < 1 || sub.hi > 3000 || sub.lo >= sub.hi {
				t.Errorf("%s: bad attrs %v or price range %d–%d", sub.category, sub.attrs, sub.lo, sub.hi)
			}
			for _, k := range sub.attrs {
				if k != "weight" && len(sub.vals[k]) == 0 && len(top.vals[k]) == 0 {
					t.Errorf("%s: no values for attribute %q", sub.category, k)
				}
			}
		}
	}
}

func BenchmarkWriteSynthetic(b *testing.B) {
	const n = 100_000
	var cw countWriter // size the output once; timed runs go to io.Discard
	if err := WriteSynthetic(&cw, n, 1); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(cw))
	for b.Loop() {
		if err := WriteSynthetic(io.Discard, n, 1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cw), "out-bytes/op")
}

// countWriter counts the bytes written to it.
type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}
