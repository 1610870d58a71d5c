package eval

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"shopbot/catalog/search"
)

// k is the cut-off of the ranking metrics.
const k = 10

// Result is how one query fared.
type Result struct {
	Judgment   Judgment
	NDCG       float64
	Recall     float64
	RR         float64 // reciprocal rank of the first relevant result
	Returned   int
	Violations int
	Latency    time.Duration
	Top        []string // the SKUs returned, best first
}

// Report summarizes a run.
type Report struct {
	Queries     int // all queries run
	Answerable  int // queries with at least one relevant product
	NDCG        float64
	Recall      float64
	MRR         float64
	ZeroResults int // answerable queries that returned nothing
	Violations  int // results outside their query's filters
	P50, P99    time.Duration
	Results     []Result
	Kinds       []KindReport // per Judgment.Kind, sorted by name
}

// KindReport is the ranking quality of one kind of query.
type KindReport struct {
	Kind         string
	Answerable   int
	NDCG, Recall float64
}

// Run searches every judgment and scores the results.
func Run(ctx context.Context, s search.Searcher, js []Judgment, currency string) (Report, error) {
	r := Report{Queries: len(js)}
	var lat []time.Duration
	for _, j := range js {
		res, err := one(ctx, s, j, currency)
		if err != nil {
			return r, fmt.Errorf("eval: line %d (%q): %w", j.Line, j.Query, err)
		}
		lat = append(lat, res.Latency)
		r.Violations += res.Violations
		if len(j.Relevant) > 0 {
			r.Answerable++
			r.NDCG += res.NDCG
			r.Recall += res.Recall
			r.MRR += res.RR
			if res.Returned == 0 {
				r.ZeroResults++
			}
		}
		r.Results = append(r.Results, res)
	}
	if r.Answerable > 0 {
		n := float64(r.Answerable)
		r.NDCG, r.Recall, r.MRR = r.NDCG/n, r.Recall/n, r.MRR/n
	}
	r.P50, r.P99 = percentile(lat, 50), percentile(lat, 99)
	r.Kinds = byKind(r.Results)
	return r, nil
}

// byKind averages nDCG and recall over the answerable queries of each kind.
func byKind(results []Result) []KindReport {
	idx := map[string]int{}
	var out []KindReport
	for _, res := range results {
		kind := res.Judgment.Kind
		if kind == "" || len(res.Judgment.Relevant) == 0 {
			continue
		}
		i, ok := idx[kind]
		if !ok {
			i = len(out)
			idx[kind] = i
			out = append(out, KindReport{Kind: kind})
		}
		out[i].Answerable++
		out[i].NDCG += res.NDCG
		out[i].Recall += res.Recall
	}
	for i := range out {
		n := float64(out[i].Answerable)
		out[i].NDCG, out[i].Recall = out[i].NDCG/n, out[i].Recall/n
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Kind < out[b].Kind })
	return out
}

func one(ctx context.Context, s search.Searcher, j Judgment, currency string) (Result, error) {
	q := j.query(currency, k)
	start := time.Now()
	found, err := s.Search(ctx, q)
	res := Result{Judgment: j, Latency: time.Since(start)}
	if err != nil {
		return res, err
	}
	var gains []int
	for _, p := range found.Products {
		res.Top = append(res.Top, p.SKU)
		gains = append(gains, j.Relevant[p.SKU])
		if q.Violation(p) != "" {
			res.Violations++
		}
	}
	res.Returned = len(found.Products)
	res.NDCG, res.Recall, res.RR = ndcg(gains, j.Relevant), recall(gains, j.Relevant), rr(gains)
	return res, nil
}

func ndcg(gains []int, relevant map[string]int) float64 {
	ideal := make([]int, 0, len(relevant))
	for _, g := range relevant {
		ideal = append(ideal, g)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(ideal)))
	idcg := dcg(ideal)
	if idcg == 0 {
		return 0
	}
	return dcg(gains) / idcg
}

func dcg(gains []int) float64 {
	sum := 0.0
	for i, g := range gains {
		if i == k {
			break
		}
		sum += (math.Pow(2, float64(g)) - 1) / math.Log2(float64(i)+2)
	}
	return sum
}

func recall(gains []int, relevant map[string]int) float64 {
	if len(relevant) == 0 {
		return 0
	}
	hit := 0
	for i, g := range gains {
		if i < k && g > 0 {
			hit++
		}
	}
	return float64(hit) / float64(len(relevant))
}

func rr(gains []int) float64 {
	for i, g := range gains {
		if g > 0 {
			return 1 / float64(i+1)
		}
	}
	return 0
}

func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, len(s)*p/100)]
}

// Write prints the report as `name value` lines, then `kind.ndcg@10` and
// `kind.recall@10` for each kind of query; verbose adds the worst queries.
func (r Report) Write(w io.Writer, verbose bool) {
	fmt.Fprintf(w, "ndcg@10 %.4f\nrecall@10 %.4f\nmrr %.4f\nzero_results %d\nconstraint_violations %d\np50_ms %.3f\np99_ms %.3f\nqueries %d\n",
		r.NDCG, r.Recall, r.MRR, r.ZeroResults, r.Violations, ms(r.P50), ms(r.P99), r.Queries)
	for _, kr := range r.Kinds {
		fmt.Fprintf(w, "%s.ndcg@10 %.4f\n%s.recall@10 %.4f\n", kr.Kind, kr.NDCG, kr.Kind, kr.Recall)
	}
	if !verbose {
		return
	}
	worst := append([]Result(nil), r.Results...)
	sort.SliceStable(worst, func(a, b int) bool { return worst[a].NDCG < worst[b].NDCG })
	fmt.Fprintln(w, "\nworst queries (ndcg@10, line, query → top results):")
	shown := 0
	for _, res := range worst {
		if len(res.Judgment.Relevant) == 0 && res.Violations == 0 {
			continue
		}
		if shown == 15 {
			break
		}
		shown++
		fmt.Fprintf(w, "  %.3f  line %-4d %q → %v", res.NDCG, res.Judgment.Line, res.Judgment.Query, first(res.Top, 5))
		if res.Violations > 0 {
			fmt.Fprintf(w, "  (%d constraint violations)", res.Violations)
		}
		fmt.Fprintln(w)
	}
}

func first(s []string, n int) []string { return s[:min(n, len(s))] }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
