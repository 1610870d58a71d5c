package eval

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

// fakeSearcher answers from a function.
type fakeSearcher struct {
	search func(q search.Query) []catalog.Product
}

func (f fakeSearcher) Search(_ context.Context, q search.Query) (search.Results, error) {
	ps := f.search(q)
	return search.Results{Products: ps, Total: len(ps)}, nil
}

func (f fakeSearcher) Similar(context.Context, string, int) ([]catalog.Product, error) {
	return nil, nil
}

func product(sku string, price int64, stock int, path string, attrs map[string]string) catalog.Product {
	return catalog.Product{SKU: sku, Price: price, Stock: stock, Active: true, Currency: "USD",
		Category: &catalog.Category{Path: path}, Attributes: attrs}
}

func TestRead(t *testing.T) {
	file := `{"query":"sofa","relevant":{"HOM-1":3,"HOM-2":1}}

{"query":"x","relevant":{"A":4}}
not json
{"query":"y","filters":{"max_price":150,"in_stock":true,"sort":"price_asc","attributes":{"color":"red"}},"relevant":{}}
{"query":"z","colour":"red","relevant":{}}
{"query":"w","filters":{"sort":"cheapest"},"relevant":{}}
`
	js, bad := Read(strings.NewReader(file))
	if len(js) != 2 || js[0].Line != 1 || js[1].Line != 5 || *js[1].Filters.MaxPrice != 150 {
		t.Fatalf("judgments = %+v", js)
	}
	var lines []int
	for _, e := range bad {
		lines = append(lines, e.Line)
	}
	if len(lines) != 4 || lines[0] != 3 || lines[1] != 4 || lines[2] != 6 || lines[3] != 7 {
		t.Errorf("bad lines = %v (%v)", lines, bad)
	}
}

func TestMetrics(t *testing.T) {
	rel := map[string]int{"A": 3, "B": 2, "C": 1}
	if got := ndcg([]int{3, 2, 1}, rel); math.Abs(got-1) > 1e-9 {
		t.Errorf("perfect ranking ndcg = %v", got)
	}
	// B, A, then a miss: DCG = 3/1 + 7/log2(3); IDCG = 7 + 3/log2(3) + 1/2.
	want := (3 + 7/math.Log2(3)) / (7 + 3/math.Log2(3) + 0.5)
	if got := ndcg([]int{2, 3, 0}, rel); math.Abs(got-want) > 1e-9 {
		t.Errorf("ndcg = %v, want %v", got, want)
	}
	if got := recall([]int{0, 2, 0}, rel); math.Abs(got-1.0/3) > 1e-9 {
		t.Errorf("recall = %v", got)
	}
	if got := rr([]int{0, 0, 1}); got != 1.0/3 {
		t.Errorf("rr = %v", got)
	}
}

func TestRunCountsViolationsAndZeroResults(t *testing.T) {
	js, bad := Read(strings.NewReader(`{"query":"jacket","filters":{"max_price":150,"category":"Jackets","attributes":{"size":"M"}},"relevant":{"J-1":3,"J-2":2}}
{"query":"nothing here","relevant":{"J-9":3}}
{"query":"snowboard","relevant":{}}
`))
	if len(bad) != 0 {
		t.Fatal(bad)
	}
	s := fakeSearcher{search: func(q search.Query) []catalog.Product {
		if q.Text != "jacket" {
			return nil
		}
		if q.MaxPrice != 15000 || q.Category != "Jackets" {
			t.Errorf("query = %+v", q)
		}
		return []catalog.Product{
			product("J-2", 9900, 3, "Apparel > Jackets", map[string]string{"size": "S, M, L"}),
			product("J-1", 12000, 1, "Apparel > Jackets > Rain", map[string]string{"size": "m"}),
			product("X-1", 19900, 1, "Apparel > Jackets", map[string]string{"size": "M"}), // over the price
			product("X-2", 5000, 1, "Home > Decor", map[string]string{"size": "M"}),       // wrong category
			product("X-3", 5000, 1, "Apparel > Jackets", map[string]string{"size": "XL"}), // wrong size
		}
	}}
	r, err := Run(context.Background(), s, js, "USD")
	if err != nil {
		t.Fatal(err)
	}
	if r.Queries != 3 || r.Answerable != 2 || r.ZeroResults != 1 || r.Violations != 3 {
		t.Errorf("report = %+v", r)
	}
	if r.Recall != 0.5 || r.MRR != 0.5 {
		t.Errorf("recall %v, mrr %v", r.Recall, r.MRR)
	}
	var out bytes.Buffer
	r.Write(&out, true)
	for _, want := range []string{"ndcg@10 ", "recall@10 0.5000", "mrr 0.5000", "zero_results 1", "constraint_violations 3", "p50_ms ", "p99_ms ", "queries 3", "worst queries", `"nothing here"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}
